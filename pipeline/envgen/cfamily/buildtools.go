package cfamily

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"curate/pipeline/envgen"
)

// Debian 12's CMake and Meson. A project that asks for newer ones gets
// them from PyPI (the cmake and meson wheels are the upstream releases),
// which answers wherever pip does.
var (
	debianCMake = [2]int{3, 25}
	debianMeson = [2]int{1, 0}
)

var (
	cmakeMinRe = regexp.MustCompile(`(?i)cmake_minimum_required\s*\(\s*VERSION\s+(\d+)\.(\d+)`)
	mesonMinRe = regexp.MustCompile(`meson_version\s*:\s*'\s*>=?\s*(\d+)\.(\d+)`)
)

// newerThan parses a major.minor match and says whether it is newer than have.
func newerThan(m []string, have [2]int) (string, bool) {
	if m == nil {
		return "", false
	}
	major, _ := strconv.Atoi(m[1])
	minor, _ := strconv.Atoi(m[2])
	return fmt.Sprintf("%d.%d", major, minor), major > have[0] || major == have[0] && minor > have[1]
}

// buildToolSteps install the CMake or Meson the root build file asks for
// when Debian 12's is older: cmake_minimum_required(VERSION 3.28) or
// project(..., meson_version: '>=1.3') failed before any test could run.
// The wheel goes to /usr/local/bin, ahead of Debian's in PATH.
func buildToolSteps(p *envgen.Plan, tree *envgen.Tree, dir, sys string) {
	tool, file, have, re := "cmake", "CMakeLists.txt", debianCMake, cmakeMinRe
	if sys == "meson" {
		tool, file, have, re = "meson", "meson.build", debianMeson, mesonMinRe
	} else if sys != "cmake" {
		return
	}
	want, newer := newerThan(re.FindStringSubmatch(stripComments(tree.Text(join(dir, file)), "#")), have)
	if !newer {
		return
	}
	if !contains(p.Packages, "python3-pip") {
		p.Packages = append(p.Packages, "python3-pip")
	}
	// The same major version: CMake 4 dropped compatibility with projects
	// (and fetched dependencies) that ask for less than 3.5.
	major, _, _ := strings.Cut(want, ".")
	n, _ := strconv.Atoi(major)
	spec := fmt.Sprintf("%s>=%s,<%d", tool, want, n+1)
	p.ToolchainSteps = append(p.ToolchainSteps, envgen.RegistryStep("the package index (${PIP_INDEX_URL:-https://pypi.org/simple})",
		`s/.*No matching distribution found for ([^ ;]+).*/\1/p`, "python3 -m pip install -q --break-system-packages "+envgen.ShellQuote(spec)))
	p.Note("%s %s or newer, from PyPI: %s asks for it and Debian 12 has %d.%d", tool, want, join(dir, file), have[0], have[1])
}
