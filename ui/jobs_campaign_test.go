package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"curate/app"
	"curate/pipeline/source/gitmine"
	"curate/ui/shared"
)

// TestJobCampaignReadsAFileOfClones: J c, a file listing two clones, a
// date and a limit start the campaign with the clones made absolute and
// the mine options parsed; its steps show as progress and its line at the
// end. A file naming a missing clone is refused with FILE:LINE and
// nothing starts.
func TestJobCampaignReadsAFileOfClones(t *testing.T) {
	a, _ := jobsApp(t, "dark", 160, 40, nil)
	dir := t.TempDir()
	for _, d := range []string{"calc", "mathx"} {
		os.Mkdir(filepath.Join(dir, d), 0o755)
	}
	list := filepath.Join(dir, "repos.txt")
	os.WriteFile(list, []byte("# two clones\ncalc\n"+filepath.Join(dir, "mathx")+"\n"), 0o644)
	var gotClones []string
	var gotMine gitmine.Options
	var gotPreset string
	a.ctx.Services.Campaign = func(ctx context.Context, clones []string, mine gitmine.Options, preset string, progress app.ProgressFunc) (string, error) {
		gotClones, gotMine, gotPreset = clones, mine, preset
		progress(app.Progress{Stage: "mine", Done: 1, Total: 2, Item: "acme/calc: 2 PRs mined"})
		return "campaign of 2 repositories: 4 PRs mined, 3 built (0 before), 1 refused, 3 valid, 0 invalid", nil
	}
	press(t, a, "J", "c")
	if v := plain(a.View()); !strings.Contains(v, "Campaign: mine, check, build and validate clones") {
		t.Fatalf("c did not open the campaign form:\n%s", v)
	}
	typeText(t, a, list)
	press(t, a, "tab")
	typeText(t, a, "2024-01-01")
	press(t, a, "tab", "backspace")
	typeText(t, a, "5")
	press(t, a, "tab")
	typeText(t, a, "none")
	press(t, a, "enter")
	jobs := a.ctx.Long.All()
	if len(jobs) != 1 || jobs[0].State != shared.JobDone || !strings.HasPrefix(jobs[0].Line, "campaign of 2 repositories") {
		t.Fatalf("jobs %+v", jobs)
	}
	want := []string{filepath.Join(dir, "calc"), filepath.Join(dir, "mathx")}
	if strings.Join(gotClones, " ") != strings.Join(want, " ") || gotMine.Limit != 5 || !gotMine.Since.Equal(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("campaign of %v with %+v", gotClones, gotMine)
	}
	if gotPreset != "none" {
		t.Errorf("campaign preset %q, want none", gotPreset)
	}

	press(t, a, "c")
	typeText(t, a, list)
	press(t, a, "tab", "tab", "tab")
	typeText(t, a, "strict")
	press(t, a, "enter")
	if len(a.ctx.Long.All()) != 1 || !a.statErr || !strings.Contains(a.status, `preset "strict": want taskgen, swesmith or none`) {
		t.Errorf("a preset the CLI refuses: %d jobs, status %q", len(a.ctx.Long.All()), a.status)
	}
	os.WriteFile(list, []byte("calc\nnope\n"), 0o644)
	press(t, a, "c")
	typeText(t, a, list)
	press(t, a, "enter")
	if len(a.ctx.Long.All()) != 1 || !a.statErr || !strings.Contains(a.status, list+":2: "+filepath.Join(dir, "nope")+": not a clone folder") {
		t.Errorf("a missing clone: %d jobs, status %q", len(a.ctx.Long.All()), a.status)
	}
}
