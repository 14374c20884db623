package cli

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"curate/app"
	"curate/internal/fixtures"
	"curate/internal/fixtures/fakegithub"
	"curate/pipeline/taskdir"
	"curate/workspace"
)

func countTasks(t *testing.T, ws string) int {
	t.Helper()
	w, err := workspace.Open(context.Background(), ws)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	n, err := w.Store.CountTasks(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestMineGitCommand(t *testing.T) {
	ws := newWorkspace(t)
	hist, err := fixtures.GitHistory(filepath.Join(t.TempDir(), "widgets"))
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := cli(t, "-w", ws, "mine", "git", hist)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"Mined 8 merged PRs", "2 candidates, 6 rejected", "acme__widgets-7", "octopus merge (3 parents)", "not substantial: docs-only change", "no linked issue"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = cli(t, "-w", ws, "mine", "git", hist, "--preset", "swesmith", "--json", "--limit", "3")
	var tasks []map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &tasks) != nil || len(tasks) != 7 {
		t.Fatalf("--json --limit 3: exit %d, %d tasks (want 7: the PRs down to the third candidate):\n%s", code, len(tasks), out)
	}
	if n := strings.Count(out, `"status":"candidate"`); n != 3 {
		t.Errorf("--json --limit 3: %d candidates, want 3", n)
	}
	if countTasks(t, ws) != 8 {
		t.Errorf("store has %d tasks, want 8", countTasks(t, ws))
	}
}

func TestMineGitBadInput(t *testing.T) {
	ws := newWorkspace(t)
	empty := t.TempDir()
	exec.Command("git", "init", "-q", empty).Run()
	hist, err := fixtures.GitHistory(filepath.Join(t.TempDir(), "src"))
	if err != nil {
		t.Fatal(err)
	}
	shallow := filepath.Join(t.TempDir(), "shallow")
	if out, err := exec.Command("git", "clone", "-q", "--depth", "1", "file://"+hist, shallow).CombinedOutput(); err != nil {
		t.Fatal(string(out))
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"mine", "git", t.TempDir()}, "not a git repository"},
		{[]string{"mine", "git", empty}, "empty repository"},
		{[]string{"mine", "git", shallow}, "shallow clone"},
		{[]string{"mine", "git", hist, "--since", "last week"}, `invalid --since "last week"`},
		{[]string{"mine", "git", hist, "--until", "2024-13-01"}, "invalid --until"},
		{[]string{"mine", "git", hist, "--preset", "strict"}, `--preset "strict"`},
		{[]string{"mine", "git", hist, "--repo", "../x"}, "want OWNER/NAME"},
		{[]string{"mine", "github", "not-a-repo"}, "want OWNER/REPO"},
		{[]string{"build"}, "--candidates"},
		{[]string{"build", "--accepted"}, "no task of status candidate"}, // the old name still works
		{[]string{"build", "--candidates"}, "no task of status candidate"},
	} {
		code, _, errOut := cli(t, append([]string{"-w", ws}, c.args...)...)
		if code == 0 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", c.args, code, errOut, c.want)
		}
	}
	if n := countTasks(t, ws); n != 0 {
		t.Errorf("bad input stored %d tasks", n)
	}
}

func TestBuildCommand(t *testing.T) {
	ws, py := minedCalc(t)
	code, out, errOut := cli(t, "-w", ws, "build", "--accepted", "--base-image", "curate/base:bookworm", "--json")
	if code != 0 {
		t.Fatalf("build: %s", errOut)
	}
	var res []app.BuildResult
	if err := json.Unmarshal([]byte(out), &res); err != nil || len(res) != 2 {
		t.Fatalf("results %v: %s", err, out)
	}
	for _, r := range res {
		if r.Status != "built" || r.Image != "curate/base:bookworm" {
			t.Errorf("%+v", r)
		}
		d, err := taskdir.Digest(r.TaskDir)
		if err != nil || d != r.Digest {
			t.Errorf("%s digest %s vs %s (%v)", r.ID, d, r.Digest, err)
		}
	}
	w, err := workspace.Open(context.Background(), ws)
	if err != nil {
		t.Fatal(err)
	}
	task, err := w.Store.Task(context.Background(), "acme__calc-1")
	w.Close()
	if err != nil || task.Status != "built" || task.TaskDir == "" || task.Body == "" {
		t.Fatalf("stored task after build: %+v %v", task, err)
	}
	// Re-mining keeps the build.
	cli(t, "-w", ws, "mine", "git", py.Path)
	w, _ = workspace.Open(context.Background(), ws)
	task, _ = w.Store.Task(context.Background(), "acme__calc-1")
	w.Close()
	if task.Status != "built" || task.Digest == "" {
		t.Errorf("re-mine dropped the build: %s %q", task.Status, task.Digest)
	}
	entries, _ := os.ReadDir(filepath.Join(ws, "tasks"))
	if len(entries) != 2 {
		t.Errorf("tasks/ holds %d entries (leftover temp dirs?)", len(entries))
	}
}

func TestDemoBuildsFixtureTasks(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "demo")
	code, out, errOut := cli(t, "demo", "--dir", dir, "--no-open")
	if code != 0 {
		t.Fatalf("demo: %s", errOut)
	}
	if !strings.Contains(out, "built 4 tasks") {
		t.Errorf("demo output:\n%s", out)
	}
	cfg, err := os.ReadFile(filepath.Join(dir, "curate.toml"))
	if err != nil || !strings.Contains(string(cfg), `base_image = "curate/base:bookworm"`) {
		t.Errorf("demo curate.toml: %s", cfg)
	}
	for _, id := range []string{"acme__calc-1", "acme__mathx-1"} {
		df, err := os.ReadFile(filepath.Join(dir, "tasks", id, "environment", "Dockerfile"))
		if err != nil || !strings.Contains(string(df), "FROM curate/base:bookworm\n") {
			t.Errorf("%s Dockerfile: %v\n%s", id, err, df)
		}
	}
}

// TestMineGitHubThenBuild mines the fake GitHub (rate limits, pagination,
// a 404 issue), resumes, and builds from the partial clone.
func TestMineGitHubThenBuild(t *testing.T) {
	f := fakegithub.New(t)
	ws := newWorkspace(t)
	t.Setenv("GITHUB_TOKEN", "")
	t.Setenv("PATH", "/usr/bin:/bin") // no gh: unauthenticated, with a warning
	code, out, errOut := cli(t, "-w", ws, "mine", "github", "acme/calc", "--api-url", f.URL, "--limit", "1")
	if code != 0 {
		t.Fatalf("first run: %s", errOut)
	}
	if !strings.Contains(errOut, "warning: no GitHub token") || !strings.Contains(out, "acme__calc-2") || strings.Contains(out, "acme__calc-1 ") {
		t.Errorf("first run:\n%s\n%s", out, errOut)
	}
	code, out, errOut = cli(t, "-w", ws, "mine", "github", "acme/calc", "--api-url", f.URL)
	if code != 0 {
		t.Fatalf("second run: %s", errOut)
	}
	if !strings.Contains(out, "1 PRs were mined by an earlier run") || !strings.Contains(out, "acme__calc-1") || !strings.Contains(errOut, "resuming at") {
		t.Errorf("second run:\n%s\n%s", out, errOut)
	}
	if f.Count("files 2") != 2 {
		t.Errorf("PR 2 files fetched %d times, want once (2 pages)", f.Count("files 2"))
	}
	code, out, errOut = cli(t, "-w", ws, "build", "acme__calc-1", "--json")
	if code != 0 {
		t.Fatalf("build from the partial clone: %s %s", out, errOut)
	}
	instr, err := os.ReadFile(filepath.Join(ws, "tasks", "acme__calc-1", "instruction.md"))
	if err != nil || !strings.Contains(string(instr), "Expected 0.5 from divide(1, 2).") {
		t.Errorf("instruction should come from linked issue #11: %s %v", instr, err)
	}
	code, _, errOut = cli(t, "-w", ws, "mine", "github", "acme/missing", "--api-url", f.URL)
	if code == 0 || !strings.Contains(errOut, "not found (404)") {
		t.Errorf("missing repo: %d %s", code, errOut)
	}
}

// TestMineLimitCountsCandidates: --limit N stops after N candidates, not
// N PRs. Found as a new user: a campaign with --limit 1 mined one PR, the
// preset rejected it, and nothing was built ("1 mined, 1 rejected").
func TestMineLimitCountsCandidates(t *testing.T) {
	hist, err := fixtures.GitHistory(filepath.Join(t.TempDir(), "widgets"))
	if err != nil {
		t.Fatal(err)
	}
	for _, limit := range []string{"1", "2"} {
		ws := newWorkspace(t)
		code, out, errOut := cli(t, "-w", ws, "mine", "git", hist, "--limit", limit)
		if code != 0 {
			t.Fatalf("--limit %s: exit %d: %s", limit, code, errOut)
		}
		if !strings.Contains(out, ": "+limit+" candidates, ") {
			t.Errorf("--limit %s: want %s candidates (the fixture has 2 among 8 PRs):\n%s", limit, limit, out)
		}
	}
	ws := newWorkspace(t)
	code, out, _ := cli(t, "-w", ws, "mine", "git", hist, "--limit", "5")
	if code != 0 || !strings.Contains(out, "Mined 8 merged PRs") || !strings.Contains(out, "2 candidates, 6 rejected") {
		t.Errorf("--limit 5 past the fixture's 2 candidates: want all 8 PRs mined:\n%s", out)
	}
}

// A build that stops outside the checks (held-out set 19: git could not
// pack a submodule's tree) left the task a candidate with nothing said:
// `curate funnel` counted it "not built yet". The error is recorded on
// the task and shown as why it is not built; a later build that works
// clears it.
func TestBuildErrorIsRecorded(t *testing.T) {
	ws, py := minedCalc(t)
	moved := py.Path + ".away"
	if err := os.Rename(py.Path, moved); err != nil {
		t.Fatal(err)
	}
	if code, _, _ := cli(t, "-w", ws, "build", "acme__calc-1", "--at", "merge", "--base-image", "curate/base:bookworm"); code == 0 {
		t.Fatal("a build from a clone that is gone passed")
	}
	_, out, _ := cli(t, "-w", ws, "funnel")
	if !strings.Contains(out, "build error: ") || !strings.Contains(out, "acme__calc-1") {
		t.Errorf("funnel does not say why acme__calc-1 is not built:\n%s", out)
	}
	if err := os.Rename(moved, py.Path); err != nil {
		t.Fatal(err)
	}
	if code, _, e := cli(t, "-w", ws, "build", "acme__calc-1", "--at", "merge", "--base-image", "curate/base:bookworm"); code != 0 {
		t.Fatal(e)
	}
	if _, out, _ = cli(t, "-w", ws, "funnel"); strings.Contains(out, "build error") {
		t.Errorf("a build that worked left the error:\n%s", out)
	}
}

// minedCalc is a new workspace with the Python fixture repository
// ("calc", acme/calc) mined into it.
func minedCalc(t *testing.T) (string, fixtures.Project) {
	t.Helper()
	ws := newWorkspace(t)
	py, err := fixtures.PythonRepo(filepath.Join(t.TempDir(), "calc"))
	if err != nil {
		t.Fatal(err)
	}
	if code, _, e := cli(t, "-w", ws, "mine", "git", py.Path); code != 0 {
		t.Fatal(e)
	}
	return ws, py
}
