package ciconfig

import (
	"regexp"
	"strings"
)

var (
	// aptRe finds an apt-get/apt install command (sudo or not) and its
	// arguments up to the end of the command.
	aptRe = regexp.MustCompile(`\bapt(?:-get)?\s+(?:-\S+\s+)*install\s+([^;&|\n]*)`)
	// testRe is a command that runs tests (rake and prove: a C project's
	// harness in Ruby or Perl).
	testRe   = regexp.MustCompile(`(?i)(^|[\s/])(pytest|tox|nox|go test|cargo (?:test|nextest)|mvnw?\b.*\b(?:test|verify|install)|gradlew?\b.*\b(?:test|check|build)|npm (?:run )?test|yarn (?:run )?test|pnpm (?:run )?test|npx (?:jest|vitest|mocha)|jest|vitest|mocha|make \w*(?:test|check)\w*|python -m (?:pytest|unittest)|rake|prove|\S*test\S*\.sh)\b`)
	rustupRe = regexp.MustCompile(`\brustup\s+(?:toolchain\s+install|install|update|default|override\s+set)\s+(?:--\S+\s+)*([\w.-]+)`)
	pkgRe    = regexp.MustCompile(`^[a-z0-9][a-z0-9+.-]+$`)
	// cmakeRe is a cmake command line; defineRe one -DKEY[:TYPE]=VALUE of it.
	cmakeRe  = regexp.MustCompile(`(?:^|[\s;&|(])cmake\s[^\n]*`)
	defineRe = regexp.MustCompile(`(?:^|\s)-D\s*([A-Za-z_][A-Za-z0-9_]*)(?::[A-Z]+)?=("[^"\n]*"|'[^'\n]*'|[^\s"']+)`)
	// targetRe is the --target (-t) list of a cmake --build command.
	targetRe = regexp.MustCompile(`\s(?:--target|-t)(?:\s+|=)((?:[A-Za-z0-9_][A-Za-z0-9_.+-]*(?:\s+|$))+)`)
	// targetWordRe is a target name (not an option, not a variable).
	targetWordRe = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.+-]*$`)
)

// readShell reads a run script: apt-get install packages, rustup
// toolchains, cmake cache settings and build targets, and its test
// commands.
func readShell(out *fileConfig, where, script string) {
	script = strings.ReplaceAll(script, "\\\n", " ")
	for _, m := range aptRe.FindAllStringSubmatch(script, -1) {
		for _, p := range strings.Fields(m[1]) {
			p, _, _ = strings.Cut(p, "=") // pkg=version
			if strings.HasPrefix(p, "-") || !pkgRe.MatchString(p) {
				continue
			}
			out.packages = appendNew(out.packages, []Setting{{Value: p, Source: where + " apt-get install"}})
		}
	}
	if m := rustupRe.FindStringSubmatch(script); m != nil {
		if _, ok := out.versions[Rust]; !ok {
			out.versions[Rust] = Setting{Value: m[1], Source: where + " rustup"}
		}
	}
	for _, c := range cmakeRe.FindAllString(script, -1) {
		for _, m := range defineRe.FindAllStringSubmatch(c, -1) {
			if v := strings.Trim(m[2], `"'`); v != "" {
				out.defines = appendNew(out.defines, []Setting{{Value: m[1] + "=" + v, Source: where + " cmake"}})
			}
		}
	}
	for _, c := range cmakeRe.FindAllString(script, -1) {
		if !strings.Contains(c, "--build") {
			continue
		}
		for _, m := range targetRe.FindAllStringSubmatch(c, -1) {
			for _, t := range strings.Fields(m[1]) {
				if targetWordRe.MatchString(t) {
					out.targets = appendNew(out.targets, []Setting{{Value: t, Source: where + " cmake --build"}})
				}
			}
		}
	}
	for _, line := range strings.Split(script, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") || !testRe.MatchString(line) {
			continue
		}
		out.tests = append(out.tests, Setting{Value: line, Source: where})
	}
}

// images maps official Docker images to the tool whose version their tag
// names (node:20, python:3.12-slim, golang:1.22, rust:1.75,
// eclipse-temurin:17, maven:3.9-eclipse-temurin-21).
var images = map[string]string{
	"node": Node, "python": Python, "golang": Go, "rust": Rust,
	"openjdk": Java, "eclipse-temurin": Java, "amazoncorretto": Java, "maven": "maven", "gradle": "gradle",
}

var tagVersionRe = regexp.MustCompile(`^v?(\d+(?:\.\d+){0,2})`)
var jdkInTagRe = regexp.MustCompile(`(?:jdk|temurin|openjdk|corretto)-?(\d+)`)

// readImage reads a job's container image for a toolchain version.
func readImage(out *fileConfig, image, where string) {
	image = strings.TrimSpace(image)
	if image == "" {
		return
	}
	name, tag, ok := strings.Cut(image[strings.LastIndex(image, "/")+1:], ":")
	if !ok {
		return
	}
	tool, known := images[name]
	if !known {
		return
	}
	if m := tagVersionRe.FindStringSubmatch(tag); m != nil {
		if _, seen := out.versions[tool]; !seen {
			out.versions[tool] = Setting{Value: m[1], Source: where + " image " + image}
		}
	}
	if tool == "maven" || tool == "gradle" {
		if m := jdkInTagRe.FindStringSubmatch(tag); m != nil {
			if _, seen := out.versions[Java]; !seen {
				out.versions[Java] = Setting{Value: m[1], Source: where + " image " + image}
			}
		}
	}
}
