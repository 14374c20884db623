package repos

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"curate/app"
	"curate/pipeline"
	"curate/pipeline/validate"
	"curate/ui/shared"
	"curate/ui/uitest"
	"curate/workspace"
)

// update is the -update flag uitest.CheckGolden reads (this package does
// not import teatest, which defines it elsewhere).
var _ = flag.Bool("update", false, "rewrite testdata/golden")

var at = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

// fixture is three repositories: one with failures of two classes (with
// evidence and a suggested fix), one all valid, one whose name tries to
// drive the terminal.
func fixture() ([]*pipeline.Task, []*pipeline.Run) {
	var tasks []*pipeline.Task
	var runs []*pipeline.Run
	add := func(repo string, n int, status pipeline.Status, f *pipeline.Failure, runModes ...pipeline.Outcome) {
		for i := 0; i < n; i++ {
			id := fmt.Sprintf("%s-%d", strings.ReplaceAll(repo, "/", "__"), len(tasks)+1)
			t := &pipeline.Task{ID: id, Benchmark: "mined", Source: "git", Repo: repo, Language: "python",
				Status: status, Failure: f, TaskDir: "tasks/" + id, Digest: "sha256:" + id,
				Extra: map[string]any{app.EnvironmentNotesKey: []any{"toolchain: Python 3.11.2 (Debian 12)", "dependencies: pip install -e .", "tests: pytest -rA on tests/"}}}
			tasks = append(tasks, t)
			for j, o := range runModes {
				mode := []string{"nop", "oracle", "gold"}[j]
				r := &pipeline.Run{ID: fmt.Sprintf("r-%s-%s", id, mode), TaskID: id, Mode: mode, Outcome: o, Digest: t.Digest, StartedAt: at}
				if o == pipeline.OutcomeOK && mode == "gold" {
					r.FailToPass = []string{"tests/test_a.py::test_x"}
				}
				runs = append(runs, r)
			}
		}
	}
	ok := pipeline.OutcomeOK
	deps := &pipeline.Failure{Class: pipeline.ClassDepsMissing, Evidence: "E   ModuleNotFoundError: No module named 'hypothesis'",
		Suggestion: `install = ["pip install -e .", "pip install hypothesis"]`}
	add("pallets/click", 3, pipeline.StatusValid, nil, ok, ok, ok)
	add("pallets/click", 2, pipeline.StatusInvalid, deps, pipeline.OutcomeOracleFailed, pipeline.OutcomeOracleFailed)
	add("pallets/click", 1, pipeline.StatusInvalid, &pipeline.Failure{Class: pipeline.ClassNoFailToPass}, ok, ok, ok)
	add("pallets/click", 2, pipeline.StatusBuilt, nil)
	add("spf13/cobra", 2, pipeline.StatusValid, nil, ok, ok, ok)
	add("spf13/cobra", 1, pipeline.StatusInvalid, &pipeline.Failure{Class: pipeline.ClassCompileError, Evidence: "./cmd.go:12:2: undefined: Foo"}, pipeline.OutcomeNopNotRun)
	add("evil\x1b]0;pwned\x07/re\x1b[2Jpo", 1, pipeline.StatusInvalid, &pipeline.Failure{Class: pipeline.ClassTimeout, Evidence: "\x1b[31mkilled\x1b[0m after 600s"}, pipeline.OutcomeTimeout)
	return tasks, runs
}

func newScreen(t testing.TB, theme string, w, h int) (*Model, *uitest.Host) {
	c := uitest.Context(t, theme, nil)
	tasks, runs := fixture()
	c.Catalog = shared.NewCatalog(tasks, nil)
	s := New(c)
	x := uitest.NewHost(t, c, shared.TabRepos, s, w, h)
	s.SetData(tasks, runs, map[string]workspace.RepoConfig{"pallets/click": {Install: []string{"pip install -e ."}}})
	return s, x
}

func TestGoldenRepos(t *testing.T) {
	for _, theme := range []string{"dark", "light"} {
		for _, w := range []int{80, 160} {
			for _, c := range []struct {
				name string
				keys []string
			}{{"repos", []string{"down"}}, {"repos-class", []string{"down", "]"}}} {
				name := fmt.Sprintf("%s-%s-%d", c.name, theme, w)
				t.Run(name, func(t *testing.T) {
					s, x := newScreen(t, theme, w, 30)
					x.Press(t, c.keys...)
					got := s.View()
					if strings.ContainsAny(uitest.Plain(got), "\x1b\x07") {
						t.Fatalf("raw control sequences reach the screen:\n%q", got)
					}
					uitest.CheckGolden(t, name, got)
				})
			}
		}
	}
}

func TestReposShowClassesEvidenceAndFix(t *testing.T) {
	s, x := newScreen(t, "dark", 160, 40)
	x.Press(t, "down") // pallets/click (the evil repo sorts first)
	v := uitest.Plain(s.View())
	for _, want := range []string{"pallets/click", "[deps_missing 2]", "no_fail_to_pass 1", "ModuleNotFoundError: No module named 'hypothesis'",
		`install = ["pip install -e .", "pip install hypothesis"]`, "profile: curate.toml"} {
		if !strings.Contains(v, want) {
			t.Errorf("%q not on screen:\n%s", want, v)
		}
	}
	x.Press(t, "]")
	if v := uitest.Plain(s.View()); !strings.Contains(v, "[no_fail_to_pass 1]") || strings.Contains(v, "ModuleNotFoundError") {
		t.Errorf("] does not select the next class:\n%s", v)
	}
	x.Press(t, "down", "[")
	if v := uitest.Plain(s.View()); !strings.Contains(v, "[compile_error 1]") || !strings.Contains(v, "undefined: Foo") {
		t.Errorf("cobra's class:\n%s", v)
	}
}

// TestReposCountsFollowRuns: as a rerun's runs finish, the repo's row and
// classes change before the batch ends.
func TestReposCountsFollowRuns(t *testing.T) {
	s, x := newScreen(t, "dark", 160, 40)
	x.Press(t, "down")
	r := s.byName["pallets/click"]
	if f := r.profile.Funnel; f.Valid != 3 || r.profile.Failing() != 2 {
		t.Fatalf("start: valid %d failing %d", f.Valid, r.profile.Failing())
	}
	bad := r.profile.Failures[0].Tasks
	for _, id := range bad {
		digest := "sha256:new-" + id
		for i, mode := range []string{"nop", "oracle", "gold"} {
			run := pipeline.Run{ID: id + mode + "2", TaskID: id, Mode: mode, Outcome: pipeline.OutcomeOK, Digest: digest, StartedAt: at.Add(time.Duration(i+1) * time.Minute)}
			if mode == "gold" {
				run.FailToPass = []string{"t"}
			}
			x.Run(t, shared.MsgCmd(runDoneMsg{run: run}))
		}
	}
	if f := r.profile.Funnel; f.Valid != 5 || r.profile.Failing() != 0 {
		t.Fatalf("after the reruns: valid %d failing %d (%+v)", f.Valid, r.profile.Failing(), r.profile.Failures)
	}
	if v := uitest.Plain(s.View()); !strings.Contains(v, "[no_fail_to_pass 1]") {
		t.Errorf("the true negative is still listed:\n%s", v)
	}
}

// TestReposEditRefusedThenSaved drives the edit key's path on a real
// workspace with a scripted editor: a bad edit is shown with the temp
// file's line and curate.toml stays byte for byte; e reopens the edit, a
// good one is saved.
func TestReposEditRefusedThenSaved(t *testing.T) {
	ws := uitest.Workspace(t)
	tasks, runs := fixture()
	c := uitest.Context(t, "dark", nil)
	c.Root = ws.Root
	c.Catalog = shared.NewCatalog(tasks, nil)
	c.Services.EditRepoProfile = func(ctx context.Context, repo string) (*app.ProfileEdit, error) {
		return app.StartProfileEdit(ctx, ws, repo)
	}
	c.Services.RepoConfigs = func() map[string]workspace.RepoConfig { return ws.Config.Repos }
	if err := ws.Store.UpsertTasks(context.Background(), tasks); err != nil {
		t.Fatal(err)
	}
	s := New(c)
	x := uitest.NewHost(t, c, shared.TabRepos, s, 120, 40)
	s.SetData(tasks, runs, nil)
	x.Press(t, "down")
	before, _ := os.ReadFile(ws.ConfigPath())
	script := filepath.Join(t.TempDir(), "editor")

	edit := func(body string) {
		t.Helper()
		if err := os.WriteFile(script, []byte("#!/bin/sh\nprintf '"+body+"' > \"$1\"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		t.Setenv("VISUAL", script)
		cmd := s.edit()
		msg := cmd()
		if j, ok := msg.(shared.JobDoneMsg); ok {
			msg = j.Inner
		}
		ready, ok := msg.(editReadyMsg)
		if !ok || ready.err != nil {
			t.Fatalf("edit key: %#v", msg)
		}
		if err := ready.ed.Command().Run(); err != nil { // what tea.ExecProcess runs
			t.Fatal(err)
		}
		x.Run(t, shared.MsgCmd(editorExitMsg{ed: ready.ed}))
	}

	edit(`[repos."pallets/click"]\ninstal = ["pip install -e .[dev]"]\n`)
	v := uitest.Plain(s.View())
	if !strings.Contains(v, "profile edit refused") || !strings.Contains(v, `:2:1: unknown key "repos.pallets/click.instal"`) {
		t.Fatalf("the refused edit is not shown:\n%s", v)
	}
	if after, _ := os.ReadFile(ws.ConfigPath()); string(after) != string(before) {
		t.Fatalf("curate.toml changed by a refused edit:\n%s", after)
	}
	draft := s.draft.Path
	edit(`[repos."pallets/click"]\ninstall = ["pip install -e .[dev]"]\n`)
	if s.editErr != "" || s.draft != nil {
		t.Fatalf("good edit refused: %s", s.editErr)
	}
	if _, err := os.Stat(draft); !os.IsNotExist(err) {
		t.Errorf("the draft %s is left behind", draft)
	}
	after, _ := os.ReadFile(ws.ConfigPath())
	if !strings.HasPrefix(string(after), string(before)) || !strings.HasSuffix(string(after), "[repos.\"pallets/click\"]\ninstall = [\"pip install -e .[dev]\"]\n") {
		t.Fatalf("curate.toml after the edit:\n%s", after)
	}
	if got := ws.Config.Repos["pallets/click"].Install; len(got) != 1 || got[0] != "pip install -e .[dev]" {
		t.Fatalf("config not reloaded: %v", got)
	}
}

// BenchmarkRepoViewRunsFinish50 is the repository view refreshing as 50
// runs finish: each op applies one finished run to its repo (judge the
// task, recompute the repo's funnel and classes) and draws the frame, on
// 40 repositories of 100 tasks with three runs each (4,000 tasks, 12,000
// runs). Target: under 16 ms per frame.
func BenchmarkRepoViewRunsFinish50(b *testing.B) {
	c := uitest.Context(b, "dark", nil)
	var tasks []*pipeline.Task
	var runs []*pipeline.Run
	for r := 0; r < 40; r++ {
		repo := fmt.Sprintf("owner%02d/repo", r)
		for i := 0; i < 100; i++ {
			id := fmt.Sprintf("owner%02d__repo-%d", r, i)
			t := &pipeline.Task{ID: id, Benchmark: "mined", Source: "git", Repo: repo, Language: "go", Status: pipeline.StatusInvalid,
				Failure: &pipeline.Failure{Class: pipeline.ClassDepsMissing, Evidence: "missing go.sum entry for module " + id, Suggestion: `install = ["go mod download"]`},
				TaskDir: "tasks/" + id, Digest: "sha256:" + id,
				Extra: map[string]any{app.EnvironmentNotesKey: []any{"toolchain: Go 1.22", "tests: go test -json"}}}
			tasks = append(tasks, t)
			for _, m := range []string{"nop", "oracle", "gold"} {
				runs = append(runs, &pipeline.Run{ID: id + m, TaskID: id, Mode: m, Outcome: pipeline.OutcomeOracleFailed, Digest: t.Digest, StartedAt: at})
			}
		}
	}
	c.Catalog = shared.NewCatalog(tasks, nil)
	s := New(c)
	c.Width, c.Height, c.Active = 160, 45, shared.TabRepos
	s.SetSize(160, 43)
	s.SetData(tasks, runs, nil)
	s.cursor = 7
	finished := make([]pipeline.Run, 50)
	for i := range finished {
		id := fmt.Sprintf("owner07__repo-%d", i)
		finished[i] = pipeline.Run{ID: id + "rerun", TaskID: id, Mode: []string{"nop", "oracle", "gold"}[i%3], Outcome: pipeline.OutcomeOK,
			Digest: "sha256:" + id, StartedAt: at.Add(time.Hour)}
	}
	b.ReportAllocs()
	b.ResetTimer()
	defer uitest.ReportCPU(b)()
	for i := 0; i < b.N; i++ {
		s.RunFinished(finished[i%50])
		_ = s.View()
	}
}

// TestReposRebuildKeyRerunsFailures: R rebuilds through the service, then
// validates the returned tasks through Services.Validate (the Runs
// screen's path); each finished run moves the counts, the long job shows
// progress and goes away, and the line says what changed.
func TestReposRebuildKeyRerunsFailures(t *testing.T) {
	s, x := newScreen(t, "dark", 160, 40)
	x.Press(t, "down")
	r := s.byName["pallets/click"]
	bad := append([]string(nil), r.profile.Failures[0].Tasks...)
	s.ctx.Root = t.TempDir()
	for _, id := range bad {
		dir := filepath.Join(s.ctx.Root, "tasks", id)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "task.toml"), []byte("version = \"1.0\"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var validated []string
	s.ctx.Services.RebuildRepoTargets = func(ctx context.Context, repo string) (*app.RebuildResult, []*pipeline.Task, error) {
		res := &app.RebuildResult{Repo: repo, Built: 8}
		var tasks []*pipeline.Task
		for _, id := range bad {
			res.Tasks = append(res.Tasks, app.RebuiltTask{ID: id, Change: "environment", Digest: "sha256:new-" + id})
			res.Changed++
			tasks = append(tasks, &pipeline.Task{ID: id, Repo: repo, Benchmark: "mined", Source: "git", TaskDir: "tasks/" + id, Digest: "sha256:new-" + id})
		}
		return res, tasks, nil
	}
	s.ctx.Services.Validate = func(ctx context.Context, jobs []validate.Job, o app.ValidateOptions) ([]*pipeline.Run, error) {
		var runs []*pipeline.Run
		for i, j := range jobs {
			validated = append(validated, j.TaskID+" "+j.Mode)
			r := &pipeline.Run{ID: fmt.Sprint("v", i), TaskID: j.TaskID, Mode: j.Mode, Outcome: pipeline.OutcomeOK,
				Digest: "sha256:new-" + j.TaskID, StartedAt: at.Add(time.Hour)}
			if j.Mode == "gold" {
				r.FailToPass = []string{"t"}
			}
			o.OnDone(r)
			runs = append(runs, r)
		}
		return runs, nil
	}
	x.Press(t, "R")
	if len(validated) != 6 {
		t.Fatalf("validated %v, want nop, oracle and gold of %v", validated, bad)
	}
	if s.job != nil || s.ctx.Long.Len() != 0 {
		t.Fatalf("the job is still listed: %v %d", s.job, s.ctx.Long.Len())
	}
	v := uitest.Plain(s.View())
	for _, want := range []string{"rebuilt pallets/click: 8 task(s), 2 changed (2 environment) · rerunning 2 task(s), 6 run(s) · done: 6 ok, 0 not ok", "[no_fail_to_pass 1]"} {
		if !strings.Contains(v, want) {
			t.Errorf("%q not on screen:\n%s", want, v)
		}
	}
	if f := r.profile.Funnel; f.Valid != 5 || r.profile.Failing() != 0 {
		t.Errorf("after the rerun: valid %d failing %d", f.Valid, r.profile.Failing())
	}
}

// TestReposShowACampaignsStep: while a campaign job works on a
// repository, its row says the step and the detail what it did; once the
// job ends, neither shows.
func TestReposShowACampaignsStep(t *testing.T) {
	s, x := newScreen(t, "dark", 80, 30)
	j := s.ctx.Long.Add("campaign", 0, func() {})
	j.Repos = map[string]string{"pallets/click": "build: 3 built, 1 built before"}
	x.Press(t, "down")
	v := uitest.Plain(s.View())
	for _, want := range []string{"pallets/click ⟳ build", fmt.Sprintf("campaign (job %d, J shows it): build: 3 built, 1 built before", j.ID)} {
		if !strings.Contains(v, want) {
			t.Errorf("%q not on screen:\n%s", want, v)
		}
	}
	if strings.Contains(v, "spf13/cobra ⟳") {
		t.Errorf("a repository the campaign does not work on is marked:\n%s", v)
	}
	s.ctx.Long.Finish(j, "done", nil)
	if v := uitest.Plain(s.View()); strings.Contains(v, "⟳") || strings.Contains(v, "campaign (job") {
		t.Errorf("a finished campaign still shows:\n%s", v)
	}
}
