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
// mined with mine (Since, Until, Limit), reporting each repository's step
// as progress, and one line of what it did.
type CampaignFunc func(ctx context.Context, clones []string, mine gitmine.Options, progress ProgressFunc) (summary string, err error)

// CampaignJob is `curate campaign` for the jobs list, on the engines of o
// (the workbench's --engine): the same RunCampaign, its events as the
// job's progress (stage = step, item = the repository and its counts),
// each validation run as it ends.
func CampaignJob(ws *workspace.Workspace, o ValidateOptions) CampaignFunc {
	return func(ctx context.Context, clones []string, mine gitmine.Options, progress ProgressFunc) (string, error) {
		var mu sync.Mutex
		var sum CampaignEvent
		steps := map[string]int{}
		vo := o
		vo.OnDone = func(r *pipeline.Run) {
			mu.Lock()
			steps["run"]++
			n := steps["run"]
			mu.Unlock()
			progress.report("validate", n, 0, r.TaskID+" "+r.Mode)
		}
		event := func(e CampaignEvent) {
			if e.Waiting { // shown as the job's item, not counted as a step done
				mu.Lock()
				n := steps[e.Step]
				mu.Unlock()
				progress.report(e.Step, n, len(clones), e.Repo+": "+CampaignEventLine(e))
				return
			}
			mu.Lock()
			steps[e.Step]++
			n := steps[e.Step]
			sum.Mined += e.Mined
			sum.Rejected += e.Rejected
			sum.Built += e.Built
			sum.Already += e.Already
			sum.Refused += e.Refused
			sum.Valid += e.Valid
			sum.Invalid += e.Invalid
			mu.Unlock()
			total := len(clones)
			if e.Step == "validate" {
				total = 0
			}
			progress.report(e.Step, n, total, e.Repo+": "+CampaignEventLine(e))
		}
		repos, err := RunCampaign(ctx, ws, CampaignOptions{Clones: clones, Mine: mine, Validate: vo, Event: event})
		mu.Lock()
		defer mu.Unlock()
		what := fmt.Sprintf("%d repositories", len(repos))
		if len(repos) == 1 {
			what = "1 repository"
		}
		return fmt.Sprintf("campaign of %s: %d PRs mined (%d rejected by the filter), %d built (%d before), %d refused, %d valid, %d invalid",
			what, sum.Mined, sum.Rejected, sum.Built, sum.Already, sum.Refused, sum.Valid, sum.Invalid), err
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
