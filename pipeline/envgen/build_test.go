package envgen_test

import (
	"context"
	"curate/pipeline/envgen"
	"curate/pipeline/envgen/envgentest"
	_ "curate/pipeline/envgen/languages"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"

	"curate/internal/fixtures"
	"curate/pipeline"
	"curate/pipeline/patch"
	"curate/pipeline/source"
	"curate/pipeline/taskdir"
)

func TestBuildPythonAndGo(t *testing.T) {
	fc := envgentest.TestFilter(t)
	py, err := fixtures.PythonRepo(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	gr, err := fixtures.GoRepo(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	tasksDir := t.TempDir()
	cfg := envgen.Config{Filter: fc, DockerBase: "curate/base:bookworm", LanguageImages: map[string]string{"go": "golang:1.22"}}
	for _, c := range []struct {
		p    fixtures.Project
		lang string
	}{{py, "python"}, {gr, "go"}} {
		tasks := envgentest.MinedTasks(t, c.p.Path, fc)
		for _, n := range c.p.PRs {
			task := tasks[n]
			if task.Status != pipeline.StatusCandidate {
				t.Fatalf("%s rejected: %v", task.ID, task.Reasons)
			}
			res, err := envgen.Build(context.Background(), task, tasksDir, cfg)
			if err != nil {
				t.Fatalf("build %s: %v", task.ID, err)
			}
			if res.Language != c.lang {
				t.Errorf("%s language %s, want %s", task.ID, res.Language, c.lang)
			}
			d, _ := taskdir.Digest(res.Dir)
			if d != res.Digest || filepath.Base(res.Dir) != task.ID {
				t.Errorf("%s: dir %s digest %s vs %s", task.ID, res.Dir, res.Digest, d)
			}
			for _, rel := range []string{"environment/Dockerfile", "environment/bug.patch", "environment/repo.tar", "solution/fix.patch", "solution/solve.sh", "tests/test.sh", "instruction.md", "task.toml", "swebench.json"} {
				if _, err := os.Stat(filepath.Join(res.Dir, rel)); err != nil {
					t.Errorf("%s: %v", task.ID, err)
				}
			}
			sh := envgentest.Read(t, res.Dir, "tests/test.sh")
			lines := strings.Split(sh, "\n")
			first := ""
			for _, l := range lines {
				if l != "" && !strings.HasPrefix(l, "#") {
					first = l
					break
				}
			}
			if first != "mkdir -p /logs/verifier; rm -f /logs/verifier/reward.*; echo 0 > /logs/verifier/reward.txt" {
				t.Errorf("%s: test.sh does not start fail-closed: %q", task.ID, first)
			}
			if strings.Contains(sh, "set -e") {
				t.Errorf("%s: test.sh uses set -e", task.ID)
			}
			df := envgentest.Read(t, res.Dir, "environment/Dockerfile")
			wantImage := map[string]string{"python": "curate/base:bookworm", "go": "golang:1.22"}[c.lang]
			if !strings.Contains(df, "FROM "+wantImage+"\n") || !strings.Contains(df, "ADD repo.tar /app/") {
				t.Errorf("%s Dockerfile:\n%s", task.ID, df)
			}
			instr := envgentest.Read(t, res.Dir, "instruction.md")
			for _, leak := range []string{"ops.py", "calc/", "test_", "abs.go", "Test", "mathx_test", "stats_test"} {
				if strings.Contains(instr, leak) {
					t.Errorf("%s instruction leaks %q:\n%s", task.ID, leak, instr)
				}
			}
			var tt map[string]any
			if err := toml.Unmarshal([]byte(envgentest.Read(t, res.Dir, "task.toml")), &tt); err != nil {
				t.Fatal(err)
			}
			meta := tt["metadata"].(map[string]any)
			if tt["schema_version"] != "1.1" || meta["language"] != c.lang || meta["difficulty"] == "" {
				t.Errorf("%s task.toml: %v", task.ID, tt)
			}
			if !strings.Contains(envgentest.Read(t, res.Dir, "swebench.json"), `"FAIL_TO_PASS": []`) {
				t.Errorf("%s swebench.json", task.ID)
			}
		}
	}
	// Second PR adds a new test file: the image must delete it.
	hide := envgentest.Read(t, filepath.Join(tasksDir, "acme__calc-2"), "environment/hide-tests.patch")
	if !strings.Contains(hide, "deleted file mode") || !strings.Contains(hide, "tests/test_percent.py") {
		t.Errorf("hide-tests.patch does not remove the new test file:\n%s", hide)
	}
}

// TestGoTaskNopAndOracle runs a built Go task's scripts on the host (paths
// rewritten from /app, /tests, /solution, /logs): the buggy tree gets
// reward 0, the oracle's gets 1.
func TestGoTaskNopAndOracle(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go not installed")
	}
	fc := envgentest.TestFilter(t)
	gr, err := fixtures.GoRepo(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	tasks := envgentest.MinedTasks(t, gr.Path, fc)
	for _, n := range gr.PRs {
		res, err := envgen.Build(context.Background(), tasks[n], t.TempDir(), envgen.Config{Filter: fc})
		if err != nil {
			t.Fatal(err)
		}
		for _, oracle := range []bool{false, true} {
			root := t.TempDir()
			app := filepath.Join(root, "app")
			os.MkdirAll(app, 0o755)
			if out, err := exec.Command("tar", "-xf", filepath.Join(res.Dir, "environment/repo.tar"), "-C", app).CombinedOutput(); err != nil {
				t.Fatal(string(out))
			}
			for _, p := range []string{"environment/bug.patch", "environment/hide-tests.patch"} {
				if _, err := os.Stat(filepath.Join(res.Dir, p)); err == nil {
					if err := patch.Apply(context.Background(), app, filepath.Join(res.Dir, p), false); err != nil {
						t.Fatal(err)
					}
				}
			}
			rewrite := func(s string) string {
				return strings.NewReplacer("/app", app, "/tests", filepath.Join(res.Dir, "tests"),
					"/solution", filepath.Join(res.Dir, "solution"), "/logs", filepath.Join(root, "logs")).Replace(s)
			}
			if oracle {
				cmd := exec.Command("bash", "-c", rewrite(envgen.SolveSh))
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("solve.sh: %v\n%s", err, out)
				}
			}
			cmd := exec.Command("bash", "-c", rewrite(envgentest.Read(t, res.Dir, "tests/test.sh")))
			cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod", "GOPROXY=off")
			out, _ := cmd.CombinedOutput()
			reward := strings.TrimSpace(envgentest.Read(t, filepath.Join(root, "logs"), "verifier/reward.txt"))
			want := map[bool]string{false: "0", true: "1"}[oracle]
			if reward != want {
				t.Errorf("PR %d oracle=%v: reward %s, want %s\n%s", n, oracle, reward, want, out)
			}
			if _, err := os.Stat(filepath.Join(root, "logs", "verifier", "go-test.json")); err != nil {
				t.Errorf("no per-test report: %v", err)
			}
		}
	}
}

func TestBuildFailureLeavesNothing(t *testing.T) {
	fc := envgentest.TestFilter(t)
	dir := t.TempDir()
	g, _ := fixtures.NewGit(dir, "acme/big")
	g.Write(map[string]string{"a.py": "x = 1\n", "b.py": "y = 1\n", "tests/test_a.py": "def test_a():\n    pass\n"})
	g.Commit("init")
	f, _ := os.Create(filepath.Join(dir, "data.bin"))
	f.Truncate(100 << 20)
	f.Close()
	g.Write(map[string]string{"a.py": "x = 2\n", "tests/test_a.py": "def test_a():\n    assert True\n"})
	g.Commit("Add data (#1)\n\nFixes #2")
	if g.Err() != nil {
		t.Fatal(g.Err())
	}
	task := envgentest.MinedTasks(t, dir, fc)[1]
	tasksDir := t.TempDir()
	// An existing task dir must survive a failed rebuild untouched.
	os.MkdirAll(filepath.Join(tasksDir, task.ID), 0o755)
	os.WriteFile(filepath.Join(tasksDir, task.ID, "keep"), []byte("x"), 0o644)
	_, err := envgen.Build(context.Background(), task, tasksDir, envgen.Config{Filter: fc})
	reasons, ok := patch.IsRejection(err)
	if !ok || !strings.Contains(strings.Join(reasons, ";"), "data.bin is 100.0 MB") {
		t.Fatalf("want 100 MB rejection, got %v", err)
	}
	entries, _ := os.ReadDir(tasksDir)
	if len(entries) != 1 || envgentest.Read(t, filepath.Join(tasksDir, task.ID), "keep") != "x" {
		t.Errorf("failed build left %v", entries)
	}
	// Not a mined task at all.
	if _, err := envgen.Build(context.Background(), &pipeline.Task{ID: "x"}, tasksDir, envgen.Config{Filter: fc}); err == nil {
		t.Error("built a task with no commits")
	}
}

func TestDetectLanguage(t *testing.T) {
	for _, c := range []struct {
		tree []string
		hint string
		want string
	}{
		{[]string{"go.mod", "a.go"}, "", "go"},
		{[]string{"pyproject.toml", "x/a.py"}, "", "python"},
		{[]string{"Cargo.toml", "src/lib.rs"}, "", "rust"},
		{[]string{"package.json", "index.js"}, "", "javascript"},
		{[]string{"package.json", "tsconfig.json", "a.ts"}, "", "typescript"},
		{[]string{"pom.xml", "src/main/java/A.java"}, "", "java"},
		{[]string{"go.mod", "setup.py", "a.py", "b.py"}, "go", "go"},
		{[]string{"lib/a.py", "lib/b.py", "c.go"}, "", "python"},
	} {
		if got := envgen.DetectLanguage(c.tree, c.hint); got != c.want {
			t.Errorf("DetectLanguage(%v) = %s, want %s", c.tree, got, c.want)
		}
	}
}

func TestRepoOverrides(t *testing.T) {
	rc := envgen.RepoConfig{Install: []string{"make deps"}, TestCommand: "make test TESTS='{tests}'", Dockerfile: []string{"RUN echo custom"}, BaseImage: "my/img"}
	cfg := envgen.Config{Repos: map[string]envgen.RepoConfig{"a/b": rc}, BaseImage: "flag/img"}
	if cfg.Image("a/b", "go") != "my/img" || cfg.Image("c/d", "go") != "flag/img" || (envgen.Config{}).Image("c/d", "go") != envgen.DefaultBaseImage {
		t.Error("image precedence")
	}
	plan, err := envgen.LanguageFor("go").Plan(envgen.MapTree("a/b", map[string]string{"go.mod": "module a/b\n\ngo 1.20\n"}), envgen.Tests{Files: []string{"x_test.go"}})
	if err != nil {
		t.Fatal(err)
	}
	df := envgen.Dockerfile("a__b-1", "my/img", plan, envgen.Network{}, rc, false)
	if !strings.Contains(df, "RUN make deps") || strings.Contains(df, "( go mod download )") || !strings.Contains(df, "RUN echo custom") {
		t.Errorf("Dockerfile ignores repo overrides:\n%s", df)
	}
	if envgen.LanguageFor("cobol") != nil {
		t.Error("unknown language has a planner")
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{"a b": "'a b'", "it's": `'it'\''s'`, "caf\xe9.py": `$'caf\xe9.py'`} {
		if got := envgen.ShellQuote(in); got != want {
			t.Errorf("ShellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestInstructionRedacts(t *testing.T) {
	got := envgen.Instruction("Fix calc/ops.py", "", "divide in calc/ops.py breaks; see test_divide_fraction and ops.py.\n\nSigned-off-by: x", []string{"calc/ops.py", "test_divide_fraction"})
	if strings.Contains(got, "ops.py") || strings.Contains(got, "test_divide") || strings.Contains(got, "Signed-off-by") {
		t.Errorf("instruction leaks:\n%s", got)
	}
	if !strings.Contains(got, "divide in the affected file breaks") {
		t.Errorf("instruction:\n%s", got)
	}
	_ = source.TaskID
}

func FuzzInstruction(f *testing.F) {
	f.Add("Fix it", "body with calc/ops.py", "calc/ops.py")
	f.Add("t", "", "caf\xe9.py")
	f.Fuzz(func(t *testing.T, title, body, hide string) {
		got := envgen.Instruction(title, "", body, []string{hide, "test_secret_name"})
		if strings.Contains(got, "test_secret_name") {
			t.Fatalf("test name leaked: %q", got)
		}
		if strings.ContainsRune(got, 0x1b) {
			t.Fatalf("escape sequence reached the instruction: %q", got)
		}
	})
}

func TestBuildNonUTF8AndRename(t *testing.T) {
	fc := envgentest.TestFilter(t)
	hist, err := fixtures.GitHistory(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	tasks := envgentest.MinedTasks(t, hist, fc)
	for _, n := range []int{3, 8} {
		res, err := envgen.Build(context.Background(), tasks[n], t.TempDir(), envgen.Config{Filter: fc})
		if err != nil {
			t.Fatalf("PR %d: %v", n, err)
		}
		sh := envgentest.Read(t, res.Dir, "tests/test.sh")
		if n == 8 && !strings.Contains(sh, "python -m pytest") {
			t.Errorf("PR 8 test.sh:\n%s", sh)
		}
	}
}

func TestDockerfileInstallsMissingToolchainOnly(t *testing.T) {
	cases := []struct {
		lang, pkg string
		tree      map[string]string
		test      string
	}{
		{"python", "python3", nil, "x"},
		{"go", "golang-go", nil, "x"},
		{"rust", "rustc-web cargo-web", map[string]string{"Cargo.toml": "[package]\nname = \"b\"\n"}, "tests/x.rs"},
		// node and npm come from the npm registry, fetched with python3.
		{"typescript", "python3", map[string]string{"package.json": `{"devDependencies":{"vitest":"1"}}`}, "src/x.test.ts"},
		{"java", "maven", map[string]string{"pom.xml": "<project/>"}, "src/test/java/XTest.java"},
	}
	for _, c := range cases {
		plan, err := envgen.LanguageFor(c.lang).Plan(envgen.MapTree("a/b", c.tree), envgen.Tests{Files: []string{c.test}})
		if err != nil {
			t.Fatal(err)
		}
		df := envgen.Dockerfile("a__b-1", "ubuntu:24.04", plan, envgen.Network{}, envgen.RepoConfig{}, false)
		step := ""
		for _, line := range strings.Split(df, "\n") {
			if strings.Contains(line, "apt-get install") {
				step = line
			}
		}
		if step == "" || !strings.Contains(step, c.pkg) || !strings.Contains(step, "dpkg -s") || !strings.Contains(step, "git patch") {
			t.Errorf("%s: toolchain step %q", c.lang, step)
		}
		if strings.Index(df, "apt-get install") > strings.Index(df, "bug.patch") {
			t.Errorf("%s: toolchain must come before the patches", c.lang)
		}
	}
}
