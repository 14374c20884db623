package cli

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"curate/internal/fixtures"
)

// Every --json line of a campaign says when it was said, and a step's end
// how long the step took (found timing a campaign over fourteen
// repositories on the cluster: the stream had counts and no time, so the
// phases could be timed only by stamping its lines from outside). The
// repository here has no candidate, so no engine is needed: DOCKER_HOST
// is a dead socket.
func TestCampaignEventsSayWhenAndHowLong(t *testing.T) {
	ws := newWorkspace(t)
	t.Setenv("DOCKER_HOST", "unix://"+filepath.Join(t.TempDir(), "no-engine.sock"))
	docs, err := fixtures.DocsOnlyRepo(filepath.Join(t.TempDir(), "docs"))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	code, out, errs := cli(t, "-w", ws, "campaign", docs, "--preset", "taskgen", "--json")
	end := time.Now()
	if code != 0 {
		t.Fatalf("campaign: %d\n%s%s", code, out, errs)
	}
	steps := 0
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var e struct {
			Step    string   `json:"step"`
			At      string   `json:"at"`
			Seconds *float64 `json:"seconds"`
		}
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("not a JSON line: %q", line)
		}
		steps++
		at, err := time.Parse(time.RFC3339Nano, e.At)
		if err != nil || at.Before(start.Add(-time.Second)) || at.After(end.Add(time.Second)) {
			t.Errorf("%s: at %q is not a time within the campaign (%v)", e.Step, e.At, err)
		}
		if e.Step == "mine" && (e.Seconds == nil || *e.Seconds <= 0 || *e.Seconds > end.Sub(start).Seconds()) {
			t.Errorf("mine: seconds %v, want the mine's wall time: %s", e.Seconds, line)
		}
	}
	if steps < 2 {
		t.Errorf("%d lines, want mine and env_check at least:\n%s", steps, out)
	}
	code, out, _ = cli(t, "-w", ws, "campaign", docs, "--preset", "taskgen")
	if code != 0 || !regexp.MustCompile(`acme/docs +mine +1 PRs mined, 1 rejected by the filter \(curate funnel\) \([0-9.]+m?s\)`).MatchString(out) {
		t.Errorf("the text line does not say how long mining took:\n%s", out)
	}
}
