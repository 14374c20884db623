package ui

import (
	"context"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"

	"curate/internal/fixtures"
	"curate/pipeline"
	"curate/pipeline/taskdir"
	"curate/themes"
	"curate/workspace"
)

// updateGoldens reports -update, the flag teatest's golden package
// defines (go test ./ui -run Golden -update rewrites testdata/golden).
func updateGoldens() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// evilTitle tries to retitle the window, clear the screen, move the
// cursor, hide text and reverse it.
const evilTitle = "Fix \x1b]0;pwned\x07bug\x1b[2J\x1b[1;1H in \x1b[8mhidden\x1b[0m parser\u202egnp.exe\x9b31m"

// testTasks is a small fixed catalogue: synthetic tasks, one built task
// with real patches (testdata/tasks/fixture-calc) and one crafted to attack
// the terminal.
func testTasks() []*pipeline.Task {
	tasks := fixtures.Catalog(fixtures.Spec{"ccb_pytorch": 6, "ccb_swebenchpro": 12, "ccb_dibench": 6}, 1)
	calc := &pipeline.Task{
		ID: "fixture-calc", Benchmark: "ccb_mined", Source: "git", Repo: "acme/calc", PR: 42,
		Title: "Keep cents when a discount applies", Body: "fallback body", Language: "python", Category: "bug_fix",
		SDLCPhase: "Implementation (bug fix)", PhaseRule: "title says fix", Status: pipeline.StatusBuilt,
		Score: 0.62, DifficultyImported: "medium", DifficultyCalibrated: "hard", DifficultyRule: "loc_changed > 10",
		Breakdown: pipeline.ScoreBreakdown{ContextComplexity: 0.4, CrossFileDeps: 0.75, SemanticSearchPotential: 0.5, TaskCategoryWeight: 0.8,
			Rules: map[string]string{"context_complexity": "files_changed=2 → 0.4", "cross_file_deps": "2 files, 2 dirs", "semantic_search_potential": "python, 3 symbols", "task_category_weight": "bug_fix → 0.8"}},
		Reasons: []string{"touches only 2 files (TaskGen min 1: ok)"},
		TaskDir: "tasks/fixture-calc",
	}
	calc.Features.Set(pipeline.FeatFilesChanged, 2, "solution/fix.patch")
	calc.Features.Set(pipeline.FeatLOCChanged, 12, "solution/fix.patch")
	evil := &pipeline.Task{ID: "evil-001", Benchmark: "ccb_mined", Source: "github", Repo: "mallory/\x1b[31mrepo", Title: evilTitle,
		Body: "# Body\n\x1b]52;c;ZXZpbA==\x07clipboard grab", Language: "go", Status: pipeline.StatusCandidate}
	return append(tasks, calc, evil)
}

// newTestWorkspace makes a real workspace with testTasks, the fixture task
// dir and two runs (one stale).
func newTestWorkspace(t testing.TB) *workspace.Workspace {
	t.Helper()
	root, err := workspace.Init(filepath.Join(t.TempDir(), "ws"))
	if err != nil {
		t.Fatal(err)
	}
	ws, err := workspace.Open(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	copyDir(t, "testdata/tasks/fixture-calc", filepath.Join(root, "tasks", "fixture-calc"))
	tasks := testTasks()
	for _, tk := range tasks {
		if tk.TaskDir != "" {
			d, err := taskdir.Digest(filepath.Join(root, tk.TaskDir))
			if err != nil {
				t.Fatal(err)
			}
			tk.Digest = d
		}
	}
	ctx := context.Background()
	if err := ws.Store.UpsertTasks(ctx, tasks); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC)
	for _, r := range []*pipeline.Run{
		{ID: "r1", TaskID: "fixture-calc", Mode: "oracle", Attempt: 1, Outcome: pipeline.OutcomeOracleFailed, Digest: "sha256:old", Detail: "1 failed", StartedAt: at},
		{ID: "r2", TaskID: "sgt-001", Mode: "nop", Attempt: 1, Outcome: pipeline.OutcomeOK, StartedAt: at},
	} {
		if err := ws.Store.SaveRun(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	return ws
}

func copyDir(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if e.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// testStyles builds a theme on a fixed ANSI profile so goldens do not
// depend on the terminal running the tests.
func testStyles(t testing.TB, theme string) *themes.Styles {
	p, err := themes.Lookup(theme)
	if err != nil {
		t.Fatal(err)
	}
	return themes.Build(p, themes.NewRenderer(termenv.ANSI, theme != "light"))
}

// newTestApp opens the workbench on a fresh test workspace at w×h and
// runs its start-up commands.
func newTestApp(t testing.TB, theme string, w, h int) (*App, *workspace.Workspace) {
	t.Helper()
	ws := newTestWorkspace(t)
	keys, err := NewKeyMap(nil)
	if err != nil {
		t.Fatal(err)
	}
	c := &Context{Styles: testStyles(t, theme), Keys: keys, Store: ws.Store, Root: ws.Root, Name: "test-ws", Actor: "tester", Mouse: true}
	a := New(Options{Context: c})
	run(t, a, a.Init())
	run(t, a, func() tea.Msg { return tea.WindowSizeMsg{Width: w, Height: h} })
	return a, ws
}

// run executes cmd and every command its messages produce, synchronously,
// the way the Bubble Tea loop would (timers excepted).
func run(t testing.TB, a *App, cmd tea.Cmd) {
	t.Helper()
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0; steps++ {
		if steps > 10000 {
			t.Fatal("command loop does not settle")
		}
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		msg := c()
		if msg == nil {
			continue
		}
		if b, ok := msg.(tea.BatchMsg); ok {
			queue = append(queue, b...)
			continue
		}
		if v := reflect.ValueOf(msg); v.Kind() == reflect.Slice && v.Type().Elem() == reflect.TypeOf(tea.Cmd(nil)) {
			// tea.Sequence: in order.
			var seq []tea.Cmd
			for i := 0; i < v.Len(); i++ {
				seq = append(seq, v.Index(i).Interface().(tea.Cmd))
			}
			queue = append(seq, queue...)
			continue
		}
		if reflect.TypeOf(msg).String() == "tea.QuitMsg" {
			continue
		}
		_, next := a.Update(msg)
		queue = append(queue, next)
	}
}

// press sends keys (bubbletea names: "enter", "esc", "j", "ctrl+t", or
// literal text) one after another.
func press(t testing.TB, a *App, keys ...string) {
	t.Helper()
	for _, k := range keys {
		km := keyMsg(k)
		run(t, a, func() tea.Msg { return km })
	}
}

func typeText(t testing.TB, a *App, s string) {
	t.Helper()
	for _, r := range s {
		km := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}}
		if r == ' ' {
			km = tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}
		}
		run(t, a, func() tea.Msg { return km })
	}
}

var sgr = regexp.MustCompile(`\x1b\[[0-9;]*m`)

// plain strips our own colour codes.
func plain(s string) string { return sgr.ReplaceAllString(s, "") }

// checkGolden compares got with testdata/golden/name, or rewrites it with -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name+".golden")
	if updateGoldens() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./ui -run Golden -update)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file; plain text of the new frame:\n%s", name, plain(got))
		diffLines(t, plain(string(want)), plain(got))
	}
}

func diffLines(t *testing.T, want, got string) {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			t.Logf("line %d:\n want %q\n  got %q", i+1, a, b)
			return
		}
	}
}
