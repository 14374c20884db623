package cfamily

import (
	"strings"
	"testing"

	"curate/pipeline/envgen"
)

// A Markdown parser's tests are spec files a script checks against the
// built program; CMake declares no test, its CI runs the script after an
// in-tree build, and all six of its PRs were nop_not_run. The CI's test
// command that runs a script of the repository's is the test; one that
// only runs the build system's own tests, or names no file of the tree,
// or does not stand as written on an ENV line, is not.
func TestPlanTakesTheCIsTestScript(t *testing.T) {
	workflow := "jobs:\n  linux:\n    runs-on: ubuntu-latest\n    steps:\n" +
		"      - name: Configure\n        run: cmake -G 'Unix Makefiles' .\n" +
		"      - name: Build\n        run: make VERBOSE=1\n" +
		"      - name: Test\n        run: %s\n"
	for _, c := range []struct{ run, want string }{
		{"python3 ./scripts/run-tests.py", "python3 ./scripts/run-tests.py"},
		{"./scripts/run-tests.py --verbose", "./scripts/run-tests.py --verbose"},
		{"ctest --output-on-failure", ""},
		{"python3 ./scripts/missing.py", ""},
		{`python .\\scripts\\run-tests.py`, ""},
		{"python3 ./scripts/run-tests.py; rm -rf /", ""},
	} {
		tree := envgen.MapTree("o/n", map[string]string{
			"CMakeLists.txt":           "project(md C)\nadd_executable(md md.c)\n",
			"md.c":                     "int main(void) { return 0; }\n",
			"scripts/run-tests.py":     "",
			"test/spec.txt":            "",
			".github/workflows/ci.yml": strings.Replace(workflow, "%s", c.run, 1),
		})
		p, err := (lang{"c"}).Plan(tree, envgen.Tests{Files: []string{"test/spec.txt"}})
		if err != nil {
			t.Fatal(err)
		}
		got := planEnv(p, "CURATE_CI_TEST")
		if got != c.want {
			t.Errorf("CI test %q: CURATE_CI_TEST=%q, want %q", c.run, got, c.want)
		}
		if _, tool := p.Tools["curate-citest"]; tool != (c.want != "") {
			t.Errorf("CI test %q: curate-citest in the image: %v", c.run, tool)
		}
	}
}

// The CI's test command runs from the out-of-tree build folder, where the
// built program is, and finds the source tree's files through links: it
// passes on a good tree and is one failing test on a bad one. A build
// with tests of its own does not run it.
func TestCbuildRunsTheCIsTestScriptInDocker(t *testing.T) {
	files := map[string]string{
		"CMakeLists.txt":      "cmake_minimum_required(VERSION 3.16)\nproject(md C)\nadd_subdirectory(tool)\n",
		"tool/CMakeLists.txt": "add_executable(tool tool.c)\n",
		"tool/tool.c":         "#include <stdio.h>\nint main(void) { puts(\"<p>hi</p>\"); return 0; }\n",
		"test/good.txt":       "<p>hi</p>\n",
		"test/bad.txt":        "<p>bye</p>\n",
		"scripts/check.sh":    "#!/bin/sh\nd=$(dirname \"$0\")/..\ntool/tool | diff - \"$d/test/$1.txt\"\n",
	}
	out := runCbuild(t, files, "curate-cbuild configure cmake /tmp/b >/dev/null && curate-cbuild build cmake /tmp/b >/dev/null && "+
		"CURATE_CI_TEST='sh ./scripts/check.sh good' curate-cbuild test cmake /tmp/b; echo rc=$?; cat /logs/verifier/c-junit.xml; "+
		"CURATE_CI_TEST='sh ./scripts/check.sh bad' curate-cbuild test cmake /tmp/b; echo rc=$?; cat /logs/verifier/c-junit.xml")
	wantAll(t, out, "the CI's test command is one test: sh ./scripts/check.sh good",
		`<testcase classname="ci" name="sh ./scripts/check.sh good"/>`, "rc=0",
		`<testcase classname="ci" name="sh ./scripts/check.sh bad"><failure message="exit 1"/>`, "rc=1")

	files["CMakeLists.txt"] += "enable_testing()\nadd_test(NAME own COMMAND tool)\n"
	out = runCbuild(t, files, "curate-cbuild configure cmake /tmp/b >/dev/null && curate-cbuild build cmake /tmp/b >/dev/null && "+
		"CURATE_CI_TEST='sh ./scripts/check.sh bad' curate-cbuild test cmake /tmp/b >/dev/null; echo rc=$?; cat /logs/verifier/c-junit.xml")
	if strings.Contains(out, `classname="ci"`) || !strings.Contains(out, "rc=0") {
		t.Errorf("a build with its own test ran the CI's command:\n%s", out)
	}
}

// A DNS resolver's tests look up the "http" service by name: a CI machine
// has /etc/services, Debian's slim image does not, and 5 cases failed in
// both states. Every C/C++ image gets netbase. And xz: vstakhov/libucl's
// test_speed unpacks its input with it ("sh: 1: xz: not found" in both
// states at every PR of the nineteenth held-out set, 29 Nov 2026).
func TestPlanInstallsNetbase(t *testing.T) {
	tree := envgen.MapTree("o/n", map[string]string{"CMakeLists.txt": "project(r C)\n", "test/t.c": ""})
	p, err := (lang{"c"}).Plan(tree, envgen.Tests{Files: []string{"test/t.c"}})
	if err != nil {
		t.Fatal(err)
	}
	if !contains(p.Packages, "netbase") {
		t.Errorf("packages %v lack netbase (/etc/services)", p.Packages)
	}
	if !contains(p.Packages, "xz-utils") {
		t.Errorf("packages %v lack xz-utils (xz)", p.Packages)
	}
}

// planEnv is the value the plan's Env gives key ("" when none).
func planEnv(p *envgen.Plan, key string) string {
	v := ""
	for _, e := range p.Env {
		if after, ok := strings.CutPrefix(e, key+"="); ok {
			v = after
		}
	}
	return v
}
