package envgen_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"curate/internal/testenv"
	"curate/pipeline"
	"curate/pipeline/envgen"
	"curate/pipeline/validate"
)

// ctrfTask writes a task dir whose test.sh is the generated one (the
// language's real test command, the CTRF step, tests/ctrf.py), over a
// tiny project copied into the base image: one test the oracle fixes,
// one that passes either way.
func ctrfTask(t *testing.T, base, lang string, files map[string]string, tests []string, fix string) string {
	t.Helper()
	plan, err := envgen.LanguageFor(lang).Plan(envgen.MapTree("acme/"+lang, files), envgen.Tests{Files: tests})
	if err != nil {
		t.Fatal(err)
	}
	// The plan's environment, without its steps that fetch from registries
	// (the Python venv is made here; Go uses the base image's toolchain).
	docker := "FROM " + base + "\n"
	if lang == "python" {
		docker += "RUN python3 -m venv --system-site-packages /opt/venv\n"
	}
	for _, e := range plan.Env {
		docker += "ENV " + e + "\n"
	}
	docker += "ENV GOTOOLCHAIN=local GOFLAGS=-mod=mod\nWORKDIR /app\nCOPY app/ /app/\n"
	dir := filepath.Join(t.TempDir(), "ctrf-"+lang)
	all := map[string]string{
		"instruction.md":         "Fix it.\n",
		"task.toml":              "schema_version = \"1.4\"\n[task]\nname = \"acme/ctrf-" + lang + "\"\n",
		"environment/Dockerfile": docker,
		"tests/test.sh":          envgen.TestSh("ctrf-"+lang, plan.Test, nil, nil, nil, nil),
		envgen.CTRFFile:          string(envgen.CTRFScript),
		"solution/solve.sh":      "#!/bin/bash\ncd /app && " + fix + "\n",
	}
	for rel, body := range files {
		all["environment/app/"+rel] = body
	}
	writeTaskFiles(t, dir, all)
	return dir
}

// In a real container, generated Python and Go test.sh write a ctrf.json
// that passes the CTRF schema check, and gold reads its per-test results
// from it (the base image has python3, pytest and go; JavaScript, Rust and
// Java toolchains are not in it, their converters are checked on the
// tools' real output in TestCTRFMatchesLogParsers).
func TestGeneratedTestShWritesCTRFInContainer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds images")
	}
	base := testenv.BaseImage(t)
	py := ctrfTask(t, base, "python", map[string]string{
		"calc.py":            "def add(a, b):\n    return a - b\n",
		"tests/test_calc.py": "from calc import add\n\ndef test_add():\n    assert add(1, 2) == 3\n\ndef test_zero():\n    assert add(0, 0) == 0\n",
	}, []string{"tests/test_calc.py"}, "sed -i 's/a - b/a + b/' calc.py")
	gop := ctrfTask(t, base, "go", map[string]string{
		"go.mod":            "module example.com/calc\n\ngo 1.19\n",
		"calc/calc.go":      "package calc\n\nfunc Add(a, b int) int { return a - b }\n",
		"calc/calc_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal(Add(1, 2))\n\t}\n}\n\nfunc TestZero(t *testing.T) {\n\tif Add(0, 0) != 0 {\n\t\tt.Fatal()\n\t}\n}\n",
	}, []string{"calc/calc_test.go"}, "sed -i 's/a - b/a + b/' calc/calc.go")

	v := dockerValidator(t, "ctrf")
	want := map[string][2]string{
		py:  {"tests/test_calc.py::test_add", "tests/test_calc.py::test_zero"},
		gop: {"example.com/calc/calc.TestAdd", "example.com/calc/calc.TestZero"},
	}
	jobs := []validate.Job{{TaskID: "ctrf-python", TaskDir: py, Mode: "gold"}, {TaskID: "ctrf-go", TaskDir: gop, Mode: "gold"}}
	for i, run := range v.Validate(context.Background(), jobs) {
		log, _ := os.ReadFile(run.LogPath)
		if run.Outcome != pipeline.OutcomeOK {
			t.Errorf("%s: outcome %s (%s)\n%s", jobs[i].TaskID, run.Outcome, run.Detail, log)
			continue
		}
		if strings.Count(string(log), "tests from ctrf.json") != goldStates(log) {
			t.Errorf("%s: gold did not read a valid ctrf.json in both states:\n%s", jobs[i].TaskID, log)
		}
		w := want[jobs[i].TaskDir]
		if strings.Join(run.FailToPass, ",") != w[0] || strings.Join(run.PassToPass, ",") != w[1] {
			t.Errorf("%s: F2P %v P2P %v, want [%s] [%s]", jobs[i].TaskID, run.FailToPass, run.PassToPass, w[0], w[1])
		}
	}
}

// goldStates is how many states a gold run's log tested: buggy, fixed,
// and fixed again for stable ids unless every id was a plain name.
func goldStates(log []byte) int {
	if strings.Contains(string(log), "plain name") {
		return 2
	}
	return 3
}
