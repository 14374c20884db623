package envgen_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"curate/internal/fixtures"
	"curate/pipeline"
)

// TestRakeHarnessValidates reproduces a C unit-test framework's failure
// (its snapshot 3a6eb6d, PRs #644-#839): CMake builds the library and
// declares no test, the CI runs the tests with "cd test && rake ci", and
// every PR ended nop_not_run, "no sign the test suite ran". Here a small C
// library is tested the same way (a Makefile beside the rakefile that the
// CI does not run, as the framework has): a rakefile compiles each test file,
// keeps its output in build/NAME.testpass and prints it only when a test
// fails, in Unity's FILE:LINE:NAME:PASS/FAIL lines; PR #1 fixes a clamp
// and adds the test that finds it. NOP must give 0, Oracle 1, and
// FAIL_TO_PASS name the new test. Rake stops at the first failing test
// file, so on the bug the file after it (test_zeta.c, which the PR does
// not change) never runs: it is in neither list (the framework's PR #824
// had 769 such tests among its 846 FAIL_TO_PASS).
func TestRakeHarnessValidates(t *testing.T) {
	if testing.Short() {
		t.Skip("builds images")
	}
	for mode, run := range validateOnlyPR(t, rakeRepo(t), "rake", "nop", "oracle", "gold") {
		log, _ := os.ReadFile(run.LogPath)
		if run.Outcome != pipeline.OutcomeOK {
			t.Errorf("%s: outcome %s (%s)\n%s", mode, run.Outcome, run.Detail, log)
			continue
		}
		if mode == "gold" && !slices.Contains(run.FailToPass, "test_clamp.testClampAboveRange") {
			t.Errorf("gold: FAIL_TO_PASS %v lacks test_clamp.testClampAboveRange\n%s", run.FailToPass, log)
		}
		if mode == "gold" && (slices.Contains(run.FailToPass, "test_zeta.testZeta") || slices.Contains(run.PassToPass, "test_zeta.testZeta")) {
			t.Errorf("gold: test_zeta.testZeta, which rake never ran on the bug, is in a list: FAIL_TO_PASS %v, PASS_TO_PASS %v\n%s", run.FailToPass, run.PassToPass, log)
		}
	}
}

// rakeRepo makes the C library tested through a rakefile, with PR #1.
func rakeRepo(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "clamp")
	g, err := fixtures.NewGit(dir, "acme/clamp")
	if err != nil {
		t.Fatal(err)
	}
	check := "#include <stdio.h>\n#define CHECK(name, cond) do { if (cond) printf(\"%s:%d:%s:PASS\\n\", __FILE__, __LINE__, name); " +
		"else { printf(\"%s:%d:%s:FAIL: Expected TRUE Was FALSE\\n\", __FILE__, __LINE__, name); failures++; } } while (0)\n"
	g.Write(map[string]string{
		"CMakeLists.txt": "cmake_minimum_required(VERSION 3.12)\nproject(clamp C)\nadd_library(clamp src/clamp.c)\n",
		"src/clamp.h":    "int clamp(int v, int lo, int hi);\n",
		"src/clamp.c":    "#include \"clamp.h\"\nint clamp(int v, int lo, int hi) {\n  if (v < lo) return lo;\n  return v;\n}\n",
		"test/check.h":   check,
		// A Makefile beside the rakefile with a test target the CI does
		// not run (the framework's test/Makefile): the rakefile is the test.
		"test/Makefile": "test:\n\t@echo the Makefile ran, not the rakefile\n",
		"test/tests/test_clamp.c": "#include \"check.h\"\n#include \"../../src/clamp.h\"\nstatic int failures;\n" +
			"int main(void) {\n  CHECK(\"testClampBelowRange\", clamp(-5, 0, 10) == 0);\n  CHECK(\"testClampInRange\", clamp(5, 0, 10) == 5);\n  return failures;\n}\n",
		"test/tests/test_zeta.c": "#include \"check.h\"\n#include \"../../src/clamp.h\"\nstatic int failures;\n" +
			"int main(void) {\n  CHECK(\"testZeta\", clamp(0, 0, 10) == 0);\n  return failures;\n}\n",
		// As the framework's rakefile does: output kept in a result file,
		// printed only on failure, and the first failure stops rake.
		"test/rakefile": "require 'rake'\nrequire 'fileutils'\n\ntask :ci do\n  FileUtils.mkdir_p('build')\n" +
			"  Dir['tests/test_*.c'].sort.each do |f|\n    exe = File.join('build', File.basename(f, '.c'))\n" +
			"    sh \"gcc -I. -o #{exe} #{f} ../src/clamp.c\"\n    out = `#{exe}`\n" +
			"    File.write(exe + ($?.success? ? '.testpass' : '.testfail'), out)\n" +
			"    unless $?.success?\n      puts out\n      raise \"Command failed. (#{f})\"\n    end\n  end\nend\n",
		".github/workflows/main.yml": "name: CI\non: [push, pull_request]\njobs:\n  unit-tests:\n    name: \"Unit Tests\"\n    runs-on: ubuntu-latest\n" +
			"    steps:\n      - uses: actions/checkout@v4\n      - name: Run All Unit Tests\n        run: |\n          cd test && rake ci\n",
	})
	g.Commit("Clamp library")
	g.Branch("fix-clamp-high")
	g.Write(map[string]string{
		"src/clamp.c": "#include \"clamp.h\"\nint clamp(int v, int lo, int hi) {\n  if (v < lo) return lo;\n  if (v > hi) return hi;\n  return v;\n}\n",
		"test/tests/test_clamp.c": "#include \"check.h\"\n#include \"../../src/clamp.h\"\nstatic int failures;\n" +
			"int main(void) {\n  CHECK(\"testClampBelowRange\", clamp(-5, 0, 10) == 0);\n  CHECK(\"testClampInRange\", clamp(5, 0, 10) == 5);\n" +
			"  CHECK(\"testClampAboveRange\", clamp(50, 0, 10) == 10);\n  return failures;\n}\n",
	})
	g.Commit("Clamp values above the range")
	g.MergePR(1, "fix-clamp-high", "Clamp values above the range", "Fixes #2: clamp(50, 0, 10) returned 50.")
	if err := g.Err(); err != nil {
		t.Fatal(err)
	}
	return dir
}
