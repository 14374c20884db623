package app

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"curate/pipeline"
	"curate/pipeline/envgen"
	"curate/pipeline/validate"
	"curate/pipeline/validate/parse"
	"curate/workspace"
)

// flakyOracleEvidence says why an Oracle failure is flakiness rather than
// a fix that fails: every test it failed passed in gold's fixed state, on
// the same files (a pager test that depends on timing). "" otherwise.
func flakyOracleEvidence(ctx context.Context, root string, t *pipeline.Task, latest map[string]*pipeline.Run) string {
	oracle, gold := latest[pipeline.ModeOracle], latest[pipeline.ModeGold]
	if oracle == nil || gold == nil || oracle.Failure == nil || oracle.Failure.Class != pipeline.ClassFixFailsTests ||
		oracle.Digest != gold.Digest || gold.LogPath == "" {
		return ""
	}
	failed := oracleFailures(root, t, oracle)
	if len(failed) == 0 {
		return ""
	}
	m, err := GoldMatrix(ctx, root, t, gold)
	if err != nil {
		return ""
	}
	passed := map[string]bool{}
	for _, row := range m.Rows {
		fixed := row.Status[validate.StateFixed]
		if len(fixed) > 0 && !slices.ContainsFunc(fixed, func(s parse.Status) bool { return !s.Pass() }) {
			passed[row.Test] = true
		}
	}
	for _, name := range failed {
		if !passed[name] {
			return ""
		}
	}
	return fmt.Sprintf("%s failed in Oracle (run %s) and passed in gold's fixed state (run %s) on the same files",
		strings.Join(envgen.FirstOf(failed, 3), ", "), oracle.ID, gold.ID)
}

// reclassifyFlakyOracles re-reads the Oracle failures of the tasks runs
// validated against their gold runs: an Oracle run whose failing tests all
// passed in gold's fixed state is flaky, not a fix that fails, and its
// task says so (a line on warn). It returns those tasks.
func reclassifyFlakyOracles(ctx context.Context, ws *workspace.Workspace, runs []*pipeline.Run, warn io.Writer) ([]*pipeline.Task, error) {
	var changed []*pipeline.Run
	var tasks []*pipeline.Task
	err := eachFailedTask(ctx, ws, runs, func(t *pipeline.Task, latest map[string]*pipeline.Run) error {
		ev := flakyOracleEvidence(ctx, ws.Root, t, latest)
		if ev == "" {
			return nil
		}
		oracle := latest[pipeline.ModeOracle]
		oracle.Failure = &pipeline.Failure{Class: pipeline.ClassFlaky, Evidence: ev,
			Suggestion: fmt.Sprintf("# the tests differ across runs: curate validate %s --runs 3, or exclude the task", t.ID)}
		if err := ws.Store.SaveRun(ctx, oracle); err != nil {
			return err
		}
		fmt.Fprintf(warn, "%s: flaky, not a fix that fails: %s\n", t.ID, ev)
		changed = append(changed, oracle)
		tasks = append(tasks, t)
		return nil
	})
	if err != nil || len(changed) == 0 {
		return nil, err
	}
	return tasks, validate.RecordResults(ctx, ws.Store, ws.Root, changed)
}

// rerunFlakyOracles runs the Oracle of each task once more. One failure of
// a test that passed in gold's fixed state on the same files is more
// likely the machine (a CTest timeout at load 9) than the fix; a second
// Oracle that passes settles the task, one that fails again leaves it
// flaky. Every run is kept, so the first failure stays on record.
func rerunFlakyOracles(ctx context.Context, ws *workspace.Workspace, v *validate.Validator, tasks []*pipeline.Task, warn io.Writer) ([]*pipeline.Run, error) {
	jobs, skips := validate.Jobs(ws.Root, tasks, []string{pipeline.ModeOracle})
	for _, s := range skips {
		fmt.Fprintf(warn, "%s: its Oracle is not run again: %s\n", s.TaskID, s.Reason)
	}
	if len(jobs) == 0 {
		return nil, nil
	}
	for _, j := range jobs {
		fmt.Fprintf(warn, "%s: running its Oracle once more\n", j.TaskID)
	}
	again := runJobs(ctx, ws, v, jobs)
	if err := validate.RecordResults(context.WithoutCancel(ctx), ws.Store, ws.Root, again); err != nil {
		return again, err
	}
	_, err := reclassifyFlakyOracles(context.WithoutCancel(ctx), ws, again, warn)
	return again, err
}
