package app

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"curate/internal/fixtures"
	"curate/pipeline"
)

// A campaign reuses a recorded env check only while it covers the mined
// PRs: a check of the touched test files says nothing of PRs mined after
// it (found as a new user: a first campaign with --limit 2 mined PRs that
// no filter passed, its check found nothing to run, and the next campaign
// with --limit 10 kept that check and built nothing at the snapshot).
func TestCampaignChecksAgainAfterNewPRs(t *testing.T) {
	at := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
	tasks := []*pipeline.Task{
		{ID: "a__r-1", Repo: "a/r", CreatedAt: at.Add(-time.Hour)},
		{ID: "a__r-2", Repo: "a/r", CreatedAt: at.Add(time.Minute)},
		{ID: "a__r-3", Repo: "a/r", CreatedAt: at.Add(2 * time.Minute)},
		{ID: "b__s-1", Repo: "b/s", CreatedAt: at.Add(time.Hour)},
	}
	if n := minedSince(tasks, "a/r", &EnvCheck{At: at, Scope: "touched"}); n != 2 {
		t.Errorf("touched check, 2 PRs mined after it: %d, want 2", n)
	}
	if n := minedSince(tasks, "a/r", &EnvCheck{At: at}); n != 2 {
		t.Errorf("a check of before scopes were recorded (touched then): %d, want 2", n)
	}
	if n := minedSince(tasks, "a/r", &EnvCheck{At: at, Scope: "all"}); n != 0 {
		t.Errorf("a check of every test file covers later PRs: %d, want 0", n)
	}
	if n := minedSince(tasks, "a/r", &EnvCheck{At: at.Add(time.Hour), Scope: "touched"}); n != 0 {
		t.Errorf("nothing mined after the check: %d, want 0", n)
	}
}

// A repository whose mined PRs the filter all rejected has nothing to
// build, so the campaign does not check its environment (found as a new
// user: a campaign over a small JS library whose 58 PRs the taskgen preset
// rejected spent a minute on the check, then built nothing; a Java
// suite's check can take twenty). The engine here is a dead socket: a
// check would fail the campaign.
func TestCampaignSkipsTheCheckWithNoCandidate(t *testing.T) {
	ws := openTestWorkspace(t)
	t.Setenv("DOCKER_HOST", "unix://"+filepath.Join(t.TempDir(), "no-engine.sock"))
	docs, err := fixtures.DocsOnlyRepo(filepath.Join(t.TempDir(), "docs"))
	if err != nil {
		t.Fatal(err)
	}
	var events []CampaignEvent
	_, err = RunCampaign(context.Background(), ws, CampaignOptions{Clones: []string{docs}, Preset: "taskgen",
		Event: func(e CampaignEvent) { events = append(events, e) }})
	if err != nil {
		t.Fatalf("campaign: %v (events %+v)", err, events)
	}
	var check []string
	for _, e := range events {
		if e.Step == "env_check" {
			check = append(check, e.Detail)
		}
	}
	if len(check) != 1 || !strings.HasPrefix(check[0], "skipped: no candidate") {
		t.Errorf("env_check events %q, want one that says it was skipped", check)
	}
	if st, err := RepoStateOf(ws, "acme/docs"); err != nil || (st != nil && st.EnvCheck != nil) {
		t.Errorf("a check was recorded: %+v %v", st, err)
	}
}
