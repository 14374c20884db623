package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"curate/pipeline"
	"curate/workspace"
)

// snapshot hashes every file of a workspace but SQLite's shared-memory
// index (-shm), which readers touch and which holds no data.
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, "-shm") || strings.HasSuffix(p, "curate.log") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		out[strings.TrimPrefix(p, root)] = hex.EncodeToString(sum[:])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// --dry-run says what would change and changes nothing: the database and
// every file stay byte for byte the same.
func TestDryRunChangesNothing(t *testing.T) {
	root := demoWorkspace(t)
	// A candidate for build --candidates to find.
	if code, _, errs := cli(t, "-w", root, "label", "acme__calc-1", "--note", "seen"); code != 0 {
		t.Fatal(errs)
	}
	if code, _, errs := cli(t, "-w", root, "select", "--budget", "4", "--selection", "four", "--allow-infeasible"); code != 0 {
		t.Fatal(errs)
	}
	before := snapshot(t, root)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"label", "--filter", "repo=acme/calc", "--pin", "--dry-run"}, "dry run: 2 change(s) on 2 task(s) would be made; nothing changed."},
		{[]string{"select", "--budget", "4", "--selection", "four", "--dry-run", "--allow-infeasible"}, "dry run: nothing saved; without --dry-run it would replace the saved selection four"},
		{[]string{"select", "--budget", "3", "--dry-run", "--allow-infeasible"}, "it would be saved as sel-"},
		{[]string{"build", "--filter", "repo=acme/mathx", "--dry-run"}, "dry run: 2 task(s) would be built into tasks/; nothing changed."},
		{[]string{"build", "--candidates", "--dry-run"}, "would be built"},
		{[]string{"rebuild", "--repo", "acme/calc", "--dry-run"}, "dry run: 2 task(s) of acme/calc would be rebuilt; nothing changed."},
	} {
		code, out, errs := cli(t, append([]string{"-w", root}, c.args...)...)
		if code != 0 || !strings.Contains(out, c.want) {
			t.Errorf("%v: exit %d, want %q in\n%s%s", c.args, code, c.want, out, errs)
		}
	}
	after := snapshot(t, root)
	for p, h := range before {
		if after[p] != h {
			t.Errorf("%s changed", p)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("%s appeared", p)
		}
	}
	// Without --dry-run the label does change.
	if code, out, _ := cli(t, "-w", root, "label", "--filter", "repo=acme/calc", "--pin"); code != 0 || !strings.Contains(out, "2 change(s) on 2 task(s)") {
		t.Errorf("label: %d %s", code, out)
	}
}

// select rm and rename act on saved selections; rename never replaces.
func TestSelectRmRename(t *testing.T) {
	root := demoWorkspace(t)
	for _, n := range []string{"a", "b"} {
		if code, _, errs := cli(t, "-w", root, "select", "--budget", "3", "--selection", n, "--allow-infeasible"); code != 0 {
			t.Fatal(errs)
		}
	}
	if code, _, errs := cli(t, "-w", root, "select", "rename", "a", "b"); code == 0 || !strings.Contains(errs, `"b" is taken`) {
		t.Errorf("rename onto b: %d %s", code, errs)
	}
	if code, out, errs := cli(t, "-w", root, "select", "rename", "a", "c"); code != 0 || out != "renamed selection a to c\n" {
		t.Errorf("rename: %d %q %s", code, out, errs)
	}
	if code, out, errs := cli(t, "-w", root, "select", "rm", "b"); code != 0 || out != "removed selection b\n" {
		t.Errorf("rm: %d %q %s", code, out, errs)
	}
	if code, _, errs := cli(t, "-w", root, "select", "rm", "b"); code == 0 || !strings.Contains(errs, `selection "b"`) {
		t.Errorf("rm twice: %d %s", code, errs)
	}
	code, out, _ := cli(t, "-w", root, "select", "list", "--json")
	if code != 0 || !strings.Contains(out, `"name": "c"`) || strings.Contains(out, `"name": "a"`) || strings.Contains(out, `"name": "b"`) {
		t.Errorf("list after: %s", out)
	}
	if code, out, _ := cli(t, "-w", root, "stats", "--selection", "c"); code != 0 || !strings.Contains(out, "selection c:") || !strings.Contains(out, "3 of") {
		t.Errorf("stats of the renamed: %s", out)
	}
}

// Completion offers the workspace's names and every enum flag's values,
// asked as the shell scripts ask: `curate __complete ARGS... PARTIAL`.
func TestCompletionCandidates(t *testing.T) {
	root := demoWorkspace(t)
	if code, _, errs := cli(t, "-w", root, "select", "--budget", "3", "--selection", "trio", "--allow-infeasible"); code != 0 {
		t.Fatal(errs)
	}
	ws, err := workspace.Open(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	run := &pipeline.Run{ID: "r-complete-1", TaskID: "acme__calc-1", Mode: "nop", Outcome: pipeline.OutcomeOK, StartedAt: time.Now()}
	if err := ws.Store.SaveRun(context.Background(), run); err != nil {
		t.Fatal(err)
	}
	ws.Close()
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"show", "acme__"}, []string{"acme__calc-1", "acme__calc-2", "acme__mathx-1", "acme__mathx-2"}},
		{[]string{"label", "acme__m"}, []string{"acme__mathx-1", "acme__mathx-2"}},
		{[]string{"stats", "--selection", ""}, []string{"trio"}},
		{[]string{"select", "rm", "t"}, []string{"trio"}},
		{[]string{"runs", "show", "r-comp"}, []string{"r-complete-1"}},
		{[]string{"repo", "show", "acme/"}, []string{"acme/calc", "acme/mathx"}},
		{[]string{"funnel", "--repo", "acme/c"}, []string{"acme/calc"}},
		{[]string{"export", "--format", ""}, []string{"harbor", "swebench", "manifest", "report", "csv"}},
		{[]string{"validate", "--mode", "nop,"}, []string{"nop,nop", "nop,oracle", "nop,gold"}},
		{[]string{"label", "x", "--difficulty", "very"}, []string{"very_hard"}},
		{[]string{"list", "--sort", "sc"}, []string{"score"}},
		{[]string{"build", "--at", ""}, []string{"merge", "snapshot", "snapshot:", "auto"}},
		{[]string{"list", "--filter", "lang"}, []string{"language="}},
	} {
		code, out, errs := cli(t, append([]string{"-w", root, "__complete"}, c.args...)...)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		got := lines[:len(lines)-1] // the last line is the directive (:4)
		if code != 0 || strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("%v: exit %d, got %q, want %q\n%s", c.args, code, got, c.want, errs)
		}
	}
}
