package cfamily

import (
	"strings"
	"testing"

	"curate/pipeline/envgen"
)

// A C unit-test framework's own suite runs through rake: its CI installs
// gems and runs "cd test && rake ci" in a step, CMake declares no test,
// and its PRs were nop_not_run ("no sign the test suite ran") at
// 3a6eb6d. The rake command is the test command, run in test/, with ruby,
// rake and the CI's gems from Debian, and the CI file's line in the notes.
func TestPlanRunsTheCIsRakeHarness(t *testing.T) {
	workflow := "name: CI\non:\n  push:\n    branches: [ master ]\njobs:\n  unit-tests:\n" +
		"    name: \"Unit Tests\"\n    runs-on: ubuntu-latest\n    strategy:\n      matrix:\n        ruby: ['2.7', '3.0']\n" +
		"    steps:\n      - name: Setup Ruby Testing Tools\n        run: |\n          sudo gem install rspec\n          sudo gem install rubocop -v 1.57.2\n" +
		"      - name: Checkout Latest Repo\n        uses: actions/checkout@v4\n" +
		"      - name: Run All Unit Tests\n        run: |\n          cd test && rake ci\n"
	files := map[string]string{
		"CMakeLists.txt":             "cmake_minimum_required(VERSION 3.12)\nproject(unit C)\nadd_library(unit src/unit.c)\n",
		"src/unit.c":                 "int unit_ok(void) { return 1; }\n",
		"test/rakefile":              "require 'rake'\ntask :ci do\nend\n",
		"test/tests/test_unit.c":     "void testOk(void) {}\n",
		".github/workflows/main.yml": workflow,
	}
	p, err := (lang{"c"}).Plan(envgen.MapTree("o/n", files), envgen.Tests{Files: []string{"test/tests/test_unit.c"}})
	if err != nil {
		t.Fatal(err)
	}
	env := strings.Join(p.Env, "\n")
	for _, want := range []string{"CURATE_CI_TEST=rake ci", "CURATE_CI_TEST_DIR=/app/test", "CURATE_CI_HARNESS=rake"} {
		if !strings.Contains(env, want) {
			t.Errorf("env lacks %s:\n%s", want, env)
		}
	}
	for _, pkg := range []string{"ruby", "rake"} {
		if !contains(p.Packages, pkg) {
			t.Errorf("packages lack %s: %v", pkg, p.Packages)
		}
	}
	for _, tool := range []string{"curate-citest", "curate-testlines", "curate-cdeps"} {
		if _, ok := p.Tools[tool]; !ok {
			t.Errorf("tool %s not in the image", tool)
		}
	}
	if !contains(p.ToolchainSteps, "curate-cdeps 'gem:rspec' 'gem:rubocop'") {
		t.Errorf("the CI's gems are not installed from Debian: %q", p.ToolchainSteps)
	}
	notes := strings.Join(p.Notes, "\n")
	if !strings.Contains(notes, ".github/workflows/main.yml:21") || !strings.Contains(notes, "test/rakefile") {
		t.Errorf("notes do not name the CI file's line and the rakefile:\n%s", notes)
	}

	// No rakefile where the CI runs rake: not a rake harness.
	delete(files, "test/rakefile")
	p, err = (lang{"c"}).Plan(envgen.MapTree("o/n", files), envgen.Tests{Files: []string{"test/tests/test_unit.c"}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(strings.Join(p.Env, "\n"), "CURATE_CI_TEST") || contains(p.Packages, "rake") {
		t.Errorf("rake harness without a rakefile: %v %v", p.Env, p.Packages)
	}
}
