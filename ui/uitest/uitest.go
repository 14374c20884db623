// Package uitest holds what the workbench's tests share: a real test
// workspace, fixed styles, a synchronous command loop and golden files.
// Only tests import it.
package uitest

import (
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"strings"
	"syscall"
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

// dataDir is this package's testdata, wherever the test runs from.
func dataDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "testdata")
}

// updateGoldens reports -update, the flag teatest's golden package
// defines (go test ./ui -run Golden -update rewrites testdata/golden).
func updateGoldens() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// EvilTitle tries to retitle the window, clear the screen, move the
// cursor, hide text and reverse it.
const EvilTitle = "Fix \x1b]0;pwned\x07bug\x1b[2J\x1b[1;1H in \x1b[8mhidden\x1b[0m parser\u202egnp.exe\x9b31m"

// Tasks is a small fixed catalogue: synthetic tasks, one built task
// with real patches (testdata/tasks/fixture-calc) and one crafted to attack
// the terminal.
func Tasks() []*pipeline.Task {
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
	evil := &pipeline.Task{ID: "evil-001", Benchmark: "ccb_mined", Source: "github", Repo: "mallory/\x1b[31mrepo", Title: EvilTitle,
		Body: "# Body\n\x1b]52;c;ZXZpbA==\x07clipboard grab", Language: "go", Status: pipeline.StatusCandidate}
	return append(tasks, calc, evil)
}

// Workspace makes a real workspace with testTasks, the fixture task
// dir and two runs (one stale).
func Workspace(t testing.TB) *workspace.Workspace {
	t.Helper()
	root, err := workspace.InitProfile(filepath.Join(t.TempDir(), "ws"), "ccb")
	if err != nil {
		t.Fatal(err)
	}
	ws, err := workspace.Open(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	copyDir(t, filepath.Join(dataDir(), "tasks", "fixture-calc"), filepath.Join(root, "tasks", "fixture-calc"))
	tasks := Tasks()
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

// Styles builds a theme on a fixed ANSI profile so goldens do not
// depend on the terminal running the tests.
func Styles(t testing.TB, theme string) *themes.Styles {
	p, err := themes.Lookup(theme)
	if err != nil {
		t.Fatal(err)
	}
	return themes.Build(p, themes.NewRenderer(termenv.ANSI, theme != "light"))
}

var sgr = regexp.MustCompile(`\x1b\[[0-9;]*m`)

// Plain strips our own colour codes.
func Plain(s string) string { return sgr.ReplaceAllString(s, "") }

// CheckGolden compares got with testdata/golden/name, or rewrites it with -update.
func CheckGolden(t *testing.T, name, got string) {
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
		t.Fatalf("%v (run go test -run Golden -update in this package)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file; plain text of the new frame:\n%s", name, Plain(got))
		diffLines(t, Plain(string(want)), Plain(got))
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

// Update is a model's update as the loop sees it.
type Update func(tea.Msg) tea.Cmd

// Run executes cmd and every command its messages produce, synchronously,
// the way the Bubble Tea loop would (timers excepted).
func Run(t testing.TB, update Update, cmd tea.Cmd) {
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
		queue = append(queue, update(msg))
	}
}

// BigPatch is a patch of about n lines over 20 Go files.
func BigPatch(n int) string {
	var b strings.Builder
	hunks := n/20/8 + 1 // 8 lines a hunk
	for f := 0; f < 20; f++ {
		fmt.Fprintf(&b, "diff --git a/pkg/file%02d.go b/pkg/file%02d.go\n--- a/pkg/file%02d.go\n+++ b/pkg/file%02d.go\n", f, f, f, f)
		for h := 0; h < hunks; h++ {
			fmt.Fprintf(&b, "@@ -%d,6 +%d,6 @@ func f%d() {\n", h*10+1, h*10+1, h)
			fmt.Fprintf(&b, " \tx := compute(%d)\n \tif x > 0 {\n-\t\treturn x * 2\n+\t\treturn x * 3\n \t}\n \treturn 0\n", h)
			fmt.Fprintf(&b, " // line %d\n", h)
		}
	}
	return b.String()
}

// cpuTime is the process's user+system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// ReportCPU adds cpu-ns/op beside ns/op: on a shared machine wall time
// includes waiting for a core, CPU time is the work itself. Call it after
// b.ResetTimer and defer what it returns.
func ReportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() { b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op") }
}
