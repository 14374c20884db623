package ciconfig

import (
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"
)

// gitlabKeywords are .gitlab-ci.yml's top-level keys that are not jobs.
var gitlabKeywords = map[string]bool{"stages": true, "variables": true, "include": true, "workflow": true,
	"default": true, "image": true, "services": true, "before_script": true, "after_script": true, "cache": true}

// readGitLab reads .gitlab-ci.yml: the default and each job's image, its
// services and scripts; a job in stage test (or named so) is the test job.
func readGitLab(file, content string) fileConfig {
	var doc map[string]any
	if err := yaml.Unmarshal([]byte(content), &doc); err != nil {
		return fileConfig{}
	}
	out := fileConfig{versions: map[string]Setting{}}
	var jobs []string
	for _, name := range sortedKeys(doc) {
		if _, ok := doc[name].(map[string]any); ok && !gitlabKeywords[name] && !strings.HasPrefix(name, ".") {
			jobs = append(jobs, name)
		}
	}
	pick := ""
	for _, name := range jobs {
		j := doc[name].(map[string]any)
		if text(j["stage"]) == "test" || strings.Contains(strings.ToLower(name), "test") {
			pick = name
			break
		}
	}
	if pick == "" && len(jobs) > 0 {
		pick = jobs[0]
	}
	scopes := []map[string]any{doc}
	if d, ok := doc["default"].(map[string]any); ok {
		scopes = append(scopes, d)
	}
	if pick != "" {
		scopes = append([]map[string]any{doc[pick].(map[string]any)}, scopes...)
	}
	for i, s := range scopes {
		where := file
		if i == 0 && pick != "" {
			where = file + " job " + pick
		}
		readImage(&out, imageName(s["image"]), where)
		if svc, ok := s["services"].([]any); ok {
			for _, x := range svc {
				if im := imageName(x); im != "" {
					out.services = appendNew(out.services, []Setting{{Value: im, Source: where + " services"}})
				}
			}
		}
		for _, key := range []string{"before_script", "script"} {
			readShell(&out, where+" "+key, strings.Join(lines(s[key]), "\n"))
		}
	}
	return out
}

// imageName is an image given as a name or as {name: ...}.
func imageName(v any) string {
	if m, ok := v.(map[string]any); ok {
		return text(m["name"])
	}
	return text(v)
}

// lines is a YAML string or list of strings.
func lines(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		var out []string
		for _, s := range x {
			out = append(out, text(s))
		}
		return out
	}
	return nil
}

// travisTools map .travis.yml's version keys to tools.
var travisTools = map[string]string{"jdk": Java, "node_js": Node, "python": Python, "go": Go, "rust": Rust}

var jdkRe = regexp.MustCompile(`(\d+)$`)

// readTravis reads .travis.yml: version lists (the first entry), apt
// addons and apt-get lines, services and the script.
func readTravis(file, content string) fileConfig {
	var doc map[string]any
	if err := yaml.Unmarshal([]byte(content), &doc); err != nil {
		return fileConfig{}
	}
	out := fileConfig{versions: map[string]Setting{}}
	for _, key := range sortedKeys(travisTools) {
		vs := lines(doc[key])
		if len(vs) == 0 || vs[0] == "" {
			continue
		}
		v := vs[0]
		if key == "jdk" {
			if m := jdkRe.FindStringSubmatch(v); m != nil {
				v = m[1] // openjdk8 → 8
			}
		}
		out.versions[travisTools[key]] = Setting{Value: v, Source: file + " " + key}
	}
	if addons, ok := doc["addons"].(map[string]any); ok {
		if apt, ok := addons["apt"].(map[string]any); ok {
			for _, p := range lines(apt["packages"]) {
				if pkgRe.MatchString(p) {
					out.packages = appendNew(out.packages, []Setting{{Value: p, Source: file + " addons.apt.packages"}})
				}
			}
		}
	}
	for _, s := range lines(doc["services"]) {
		out.services = appendNew(out.services, []Setting{{Value: s, Source: file + " services"}})
	}
	for _, key := range []string{"before_install", "install", "script"} {
		readShell(&out, file+" "+key, strings.Join(lines(doc[key]), "\n"))
	}
	return out
}

var (
	toxEnvlistRe = regexp.MustCompile(`(?m)^envlist\s*=\s*((?:.*\n?)(?:[ \t]+.*\n?)*)`)
	toxPyRe      = regexp.MustCompile(`\bpy(3)(\d+)\b`)
	toxCmdRe     = regexp.MustCompile(`(?m)^\[testenv\][^\[]*?^commands\s*=\s*((?:.*\n?)(?:[ \t]+.*\n?)*)`)
	noxPyRe      = regexp.MustCompile(`@nox\.session\([^)]*python\s*=\s*\[?\s*["'](\d+\.\d+)`)
	noxRunRe     = regexp.MustCompile(`session\.run\(\s*["'](pytest|python)["']([^)]*)\)`)
)

// readTox reads tox.ini's envlist (the first pyXY) and [testenv] commands.
func readTox(file, content string) fileConfig {
	out := fileConfig{versions: map[string]Setting{}}
	if m := toxEnvlistRe.FindStringSubmatch(content); m != nil {
		if py := toxPyRe.FindStringSubmatch(m[1]); py != nil {
			out.versions[Python] = Setting{Value: py[1] + "." + py[2], Source: file + " envlist"}
		}
	}
	if m := toxCmdRe.FindStringSubmatch(content); m != nil {
		for _, l := range strings.Split(m[1], "\n") {
			if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
				out.tests = append(out.tests, Setting{Value: l, Source: file + " [testenv] commands"})
			}
		}
	}
	return out
}

// readNox reads noxfile.py's first session's python and its pytest run.
func readNox(file, content string) fileConfig {
	out := fileConfig{versions: map[string]Setting{}}
	if m := noxPyRe.FindStringSubmatch(content); m != nil {
		out.versions[Python] = Setting{Value: m[1], Source: file + " nox.session python"}
	}
	if m := noxRunRe.FindStringSubmatch(content); m != nil {
		out.tests = append(out.tests, Setting{Value: m[1] + " " + strings.TrimSpace(strings.ReplaceAll(strings.ReplaceAll(m[2], `"`, ""), ",", " ")), Source: file + " session.run"})
	}
	return out
}
