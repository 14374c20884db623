package cli

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"curate/app"
	"curate/internal/testenv"
	"curate/pipeline"
	"curate/pipeline/export"
)

// TestWorkbenchPart2InTmux drives the real binary on the demo workspace
// with the real Docker engine: validate a built demo task from the Runs
// screen and watch its log, change a quota and see the bars and the
// entered/left lists change, export and find the files on disk.
func TestWorkbenchPart2InTmux(t *testing.T) {
	testenv.RequireCommand(t, "tmux")
	cli := testenv.RequireDocker(t)
	base := testenv.BaseImage(t)
	if err := cli.ImageTag(context.Background(), base, app.DemoBaseImage); err != nil {
		t.Fatalf("tag %s as %s: %v", base, app.DemoBaseImage, err)
	}
	bin, demo := buildDemo(t)
	t.Cleanup(func() { exec.Command(bin, "-w", demo, "env", "prune").Run() })
	id := "acme__calc-1"
	if out, err := exec.Command(bin, "-w", demo, "show", id, "--json").Output(); err != nil || !strings.Contains(string(out), `"status": "built"`) {
		t.Fatalf("demo task %s is not built: %v\n%s", id, err, out)
	}

	tp := startTmux(t, bin+" --workspace "+demo, "USER=tmux-curator", "EDITOR=true")
	pane, keys, text, wait := tp.screen, tp.keys, tp.text, tp.wait

	wait("start", 30*time.Second, "[F1 Candidates]", "tasks · marked 0")
	keys("/")
	text(id)
	wait("filtered", 30*time.Second, "1/")
	keys("Enter", "Tab", "Tab", "Tab")
	wait("runs screen", 10*time.Second, "[F4 Runs]", "(f next class)")

	// Validate the current task: NOP then Oracle, with the log streaming.
	keys("v")
	wait("form", 5*time.Second, "Start a validation", "current task ("+id+")", "nop,oracle (+gold if mined)")
	keys("Down", "Left") // the modes: from the default (gold too, the task is mined) to nop,oracle alone
	wait("modes", 5*time.Second, "‹ nop,oracle ›")
	keys("Enter")
	wait("log", 60*time.Second, "log r", "following", "curate: ") // the run may be over already (cached image)
	p := wait("finished", 240*time.Second, "validation done: 2 ok, 0 not ok")
	if !regexp.MustCompile(`nop\s+ok 0`).MatchString(p) || !regexp.MustCompile(`oracle\s+ok 1`).MatchString(p) {
		t.Fatalf("want NOP 0 and Oracle 1:\n%s", p)
	}
	// Pause by scrolling up in the log, then follow again.
	keys("Enter", "k")
	wait("paused", 5*time.Second, "paused at line")
	keys("G")
	wait("following", 5*time.Second, "following")
	keys("Escape")
	time.Sleep(300 * time.Millisecond) // a curator's pause: ESC then tab at once would read as alt+tab

	// Quotas: put a minimum on the first dimension value and watch it move.
	keys("Tab")
	wait("quotas", 30*time.Second, "[F5 Quotas]", "feasible", "entered (0)", "left (0)")
	keys("j") // the first phase row; tasks without a phase cannot carry a quota
	before := rowOf(wait("row", 5*time.Second, "> sdlc_phase"), "> ")
	if strings.Contains(before, "(none)") {
		keys("j")
		time.Sleep(300 * time.Millisecond)
		before = rowOf(pane(), "> ")
	}
	text("+")
	p = wait("nudged", 10*time.Second, "unsaved (S saves, D discards)", "entered (1)", "left (1)")
	after := rowOf(p, "> ")
	if before == after {
		t.Fatalf("the row did not change after +:\n%s", p)
	}
	entered := regexp.MustCompile(`entered \(1\): (\S+)`).FindStringSubmatch(p)
	if entered == nil {
		t.Fatalf("no entered id:\n%s", p)
	}

	// Export the current solve.
	keys("Tab")
	wait("export", 30*time.Second, "[F6 Export]", "Task Selection Methodology")
	keys("X")
	wait("exported", 60*time.Second, "exported selection wb-", "✓ csv")
	for _, f := range []string{export.ManifestFile, export.ReportFile, export.CSVFile} {
		if _, err := os.Stat(filepath.Join(demo, "export", f)); err != nil {
			t.Errorf("export: %v", err)
		}
	}
	manifest, _ := os.ReadFile(filepath.Join(demo, "export", export.ManifestFile))
	if !strings.Contains(string(manifest), entered[1]) {
		t.Errorf("the task that entered (%s) is not in the exported manifest", entered[1])
	}
	keys("q")
	tp.waitExit(10 * time.Second)

	out, err := exec.Command(bin, "-w", demo, "runs", "--json").Output()
	if err != nil {
		t.Fatal(err)
	}
	var runs []pipeline.Run
	if err := json.Unmarshal(out, &runs); err != nil || len(runs) != 2 {
		t.Fatalf("runs: %v\n%s", err, out)
	}
	for _, r := range runs {
		if r.TaskID != id || r.Outcome != pipeline.OutcomeOK {
			t.Errorf("run %+v", r)
		}
		if data, err := os.ReadFile(r.LogPath); err != nil || !strings.Contains(string(data), "curate: outcome ok") || !strings.Contains(string(data), "test session starts") {
			t.Errorf("log %s: %v", r.LogPath, err)
		}
	}
}

// rowOf is the screen line that starts with prefix.
func rowOf(screen, prefix string) string {
	for _, l := range strings.Split(screen, "\n") {
		if strings.HasPrefix(l, prefix) {
			return l
		}
	}
	return ""
}
