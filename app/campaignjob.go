package app

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"curate/pipeline"
	"curate/pipeline/sanitize"
	"curate/pipeline/source/gitmine"
	"curate/workspace"
)

// CampaignFunc is the workbench's campaign job: RunCampaign over clones
// mined with mine (Since, Until, Limit) and the filter's preset ("" = the
// workspace's), reporting each repository's step as progress, and one
// line of what it did.
type CampaignFunc func(ctx context.Context, clones []string, mine gitmine.Options, preset string, progress ProgressFunc) (summary string, err error)

// CampaignJob is `curate campaign` for the jobs list, on the engines of o
// (the workbench's --engine): the same RunCampaign, its events as the
// job's progress (stage = step, item = the repository and its counts),
// each validation run as it ends.
func CampaignJob(ws *workspace.Workspace, o ValidateOptions) CampaignFunc {
	return func(ctx context.Context, clones []string, mine gitmine.Options, preset string, progress ProgressFunc) (string, error) {
		tally := &campaignTally{clones: len(clones), progress: progress, steps: map[string]int{}}
		vo := o
		vo.OnDone = func(r *pipeline.Run) {
			tally.mu.Lock()
			tally.steps["run"]++
			n := tally.steps["run"]
			tally.mu.Unlock()
			progress.report("validate", n, 0, r.TaskID+" "+r.Mode)
		}
		_, err := RunCampaign(ctx, ws, CampaignOptions{Clones: clones, Mine: mine, Preset: preset, Validate: vo, Event: tally.event})
		tally.mu.Lock()
		defer tally.mu.Unlock()
		return campaignSummary(tally.sum), err
	}
}

// campaignSummary is a finished campaign's line, short enough for the
// jobs list at 80 columns (its WHAT column names the repositories): the
// verdicts first, so a narrow screen cuts the least telling counts, and
// counts that are zero and only qualify another (rejected, built before,
// refused) left out.
func campaignSummary(sum CampaignEvent) string {
	built := fmt.Sprintf("%d built", sum.Built)
	if sum.Already > 0 {
		built += fmt.Sprintf(" (%d before)", sum.Already)
	}
	if sum.Refused > 0 {
		built = strings.TrimSuffix(built, ")")
		if sum.Already > 0 {
			built += ", "
		} else {
			built += " ("
		}
		built += fmt.Sprintf("%d refused)", sum.Refused)
	}
	mined := fmt.Sprintf("%d mined", sum.Mined)
	if sum.Rejected > 0 {
		mined += fmt.Sprintf(", %d rejected", sum.Rejected)
	}
	return fmt.Sprintf("%d valid, %d invalid · %s · %s", sum.Valid, sum.Invalid, built, mined)
}

// campaignTally turns a campaign's events into the job's progress (stage
// = step, done = the step's repositories so far) and its summary.
type campaignTally struct {
	clones   int
	progress ProgressFunc
	mu       sync.Mutex
	sum      CampaignEvent
	steps    map[string]int
}

func (c *campaignTally) event(e CampaignEvent) {
	c.mu.Lock()
	if !e.Waiting { // a wait is the job's current item, not a step done
		c.steps[e.Step]++
		c.sum.Mined += e.Mined
		c.sum.Rejected += e.Rejected
		c.sum.Built += e.Built
		c.sum.Already += e.Already
		c.sum.Refused += e.Refused
		c.sum.Valid += e.Valid
		c.sum.Invalid += e.Invalid
	}
	n := c.steps[e.Step]
	c.mu.Unlock()
	total := c.clones
	if e.Step == "validate" {
		total = 0
	}
	if c.progress != nil {
		c.progress(Progress{Stage: e.Step, Done: n, Total: total, Item: e.Repo + ": " + CampaignEventLine(e), Repo: e.Repo})
	}
}

// CampaignEventLine is an event's counts in words (the CLI's line, the
// jobs list's item).
func CampaignEventLine(e CampaignEvent) string {
	var parts []string
	add := func(n int, what string) {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, what))
		}
	}
	switch e.Step {
	case "mine":
		add(e.Mined, "PRs mined")
		add(e.Rejected, "rejected by the filter (curate funnel)")
	case "build":
		add(e.Built, "built")
		add(e.Already, "built before")
		add(e.Refused, "refused (curate list --filter status=rejected)")
	case "validate":
		add(e.Valid, "valid")
		add(e.Invalid, "invalid (curate funnel)")
	}
	if e.Detail != "" {
		parts = append(parts, sanitize.Line(e.Detail))
	}
	if len(parts) == 0 {
		return "nothing to do"
	}
	return strings.Join(parts, ", ")
}
