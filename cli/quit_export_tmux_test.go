package cli

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"curate/app"
	"curate/internal/testenv"
	"curate/pipeline/export"
)

// startAt80x24 runs the workbench on demo in an 80x24 pane.
func startAt80x24(t *testing.T, bin, demo string) *tmuxPane {
	t.Helper()
	tp := startTmux(t, bin+" --workspace "+demo, "USER=tmux-curator")
	tp.tm("resize-window", "-t", "0", "-x", "80", "-y", "24")
	tp.wait("start", 30*time.Second, "Candidates]", "314/314")
	return tp
}

// An unsaved quota edit at 80x24: q names it, any other key stays with
// the edit kept, s saves it to curate.toml and quits, and the workbench
// opened again shows the saved value.
func TestQuitPromptNamesUnsavedQuotaInTmux(t *testing.T) {
	testenv.RequireCommand(t, "tmux")
	bin, demo := buildDemo(t)
	tp := startAt80x24(t, bin, demo)
	tp.keys("F5")
	tp.wait("quotas", 30*time.Second, "feasible")
	tp.keys("j")
	time.Sleep(300 * time.Millisecond)
	before := rowOf(tp.screen(), "> ")
	tp.text("+")
	p := tp.wait("nudged", 10*time.Second, "unsaved")
	after := rowOf(p, "> ")
	if after == before || after == "" {
		t.Fatalf("+ changed nothing (%q):\n%s", before, p)
	}
	tp.keys("q")
	tp.wait("asked", 10*time.Second, "Quit with unsaved edits?", "budget and quota edits on the Quotas screen", "save them, then quit")
	tp.keys("Escape")
	p = tp.wait("stayed", 10*time.Second, "still here", "unsaved")
	if rowOf(p, "> ") != after {
		t.Fatalf("staying lost the edit: %q, was %q:\n%s", rowOf(p, "> "), after, p)
	}
	config, _ := os.ReadFile(filepath.Join(demo, "curate.toml"))
	tp.keys("q")
	tp.wait("asked again", 10*time.Second, "Quit with unsaved edits?")
	tp.keys("s")
	tp.waitExit(15 * time.Second)
	saved, _ := os.ReadFile(filepath.Join(demo, "curate.toml"))
	if string(saved) == string(config) || !strings.Contains(string(saved), "quotas") {
		t.Fatalf("s did not save the quota to curate.toml:\n%s", saved)
	}
	again := startAt80x24(t, bin, demo)
	again.keys("F5")
	again.wait("quotas again", 30*time.Second, "feasible")
	again.keys("j")
	time.Sleep(300 * time.Millisecond)
	p = again.screen()
	if strings.Contains(p, "unsaved") || rowOf(p, "> ") != after {
		t.Errorf("reopened: row %q, want the saved %q:\n%s", rowOf(p, "> "), after, p)
	}
	again.keys("q")
	again.waitExit(15 * time.Second)
}

// The Export screen at 80x24 with swebench ticked beside manifest, report
// and csv: the demo's tasks are not validated, so swebench is refused with
// its whole reason on screen while the other three are written; the
// allow-unvalidated switch shows its count and, on, lets swebench through.
func TestExportPartialFailureInTmux(t *testing.T) {
	testenv.RequireCommand(t, "tmux")
	bin, demo := buildDemo(t)
	tp := startAt80x24(t, bin, demo)
	tp.keys("F6")
	p := tp.wait("export", 60*time.Second, "the current solve:", "Allow unvalidated: off (", "tasks unvalidated)")
	count := regexp.MustCompile(`Allow unvalidated: off \((\d+) tasks unvalidated\)`).FindStringSubmatch(p)
	if count == nil || count[1] == "0" {
		t.Fatalf("no count of unvalidated tasks:\n%s", p)
	}
	tp.keys("Right", "Space") // tick swebench
	tp.wait("ticked", 5*time.Second, "[x] swebench")
	tp.keys("X")
	p = tp.wait("partly exported", 60*time.Second, "✗ export swebench: nothing written:", "✓ csv", "or export with", "--allow-unvalidated")
	var reason []string
	in := false
	for _, l := range strings.Split(p, "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "✗ ") {
			in = true
		} else if in && (strings.HasPrefix(l, "✓") || strings.HasPrefix(l, "Preview")) {
			in = false
		}
		if in {
			reason = append(reason, l)
		}
	}
	whole := strings.Join(reason, " ")
	if !strings.Contains(whole, count[1]+" selected task(s) are not validated valid") || !strings.HasSuffix(whole, "--allow-unvalidated") || strings.Contains(whole, "…") {
		t.Errorf("the reason is not shown whole: %q\n%s", whole, p)
	}
	out := filepath.Join(demo, "export")
	for _, f := range []string{export.ManifestFile, export.ReportFile, export.CSVFile} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("%s not written beside the refused swebench: %v", f, err)
		}
	}
	if _, err := os.Stat(filepath.Join(out, export.SWEBenchFile)); err == nil {
		t.Error("the refused swebench wrote its file")
	}
	tp.keys("a")
	tp.wait("switched", 5*time.Second, "Allow unvalidated: on ("+count[1]+" tasks unvalidated)")
	tp.keys("X")
	tp.wait("all exported", 60*time.Second, "✓ swebench")
	if _, err := os.Stat(filepath.Join(out, export.SWEBenchFile)); err != nil {
		t.Errorf("allowed swebench not written: %v", err)
	}
	tp.keys("q")
	tp.waitExit(15 * time.Second)
}

// A validation running from the Runs screen at 80x24: q names it (kind,
// task, modes, progress) before asking; any other key stays and the run
// finishes.
func TestQuitPromptNamesRunningValidationInTmux(t *testing.T) {
	testenv.RequireCommand(t, "tmux")
	docker := testenv.RequireDocker(t)
	base := testenv.BaseImage(t)
	if err := docker.ImageTag(context.Background(), base, app.DemoBaseImage); err != nil {
		t.Fatalf("tag %s as %s: %v", base, app.DemoBaseImage, err)
	}
	bin, demo := buildDemo(t)
	t.Cleanup(func() { exec.Command(bin, "-w", demo, "env", "prune").Run() })
	id := "acme__calc-1"
	tp := startAt80x24(t, bin, demo)
	tp.keys("/")
	tp.text(id)
	tp.wait("filtered", 30*time.Second, "1/")
	tp.keys("Enter", "F4")
	tp.wait("runs screen", 10*time.Second, "[F4 Runs]")
	tp.keys("v")
	tp.wait("form", 5*time.Second, "current task ("+id+")")
	tp.keys("Down", "Left") // nop,oracle alone
	tp.wait("modes", 5*time.Second, "‹ nop,oracle ›")
	tp.keys("Enter")
	tp.keys("q") // at once: the image build and two containers take seconds
	p := tp.wait("asked", 30*time.Second, "Quit with 1 validation batch(es) in flight?")
	if !strings.Contains(p, "- validate "+id+" · nop,oracle (") {
		t.Fatalf("the running validation is not named:\n%s", p)
	}
	tp.keys("Escape")
	tp.wait("finished", 240*time.Second, "validation done: 2 ok")
	tp.keys("q")
	tp.waitExit(15 * time.Second)
}
