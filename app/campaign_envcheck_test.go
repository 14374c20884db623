package app

import (
	"testing"
	"time"

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
