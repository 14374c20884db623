package app

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"curate/pipeline"
	"curate/pipeline/envgen"
	"curate/pipeline/validate"
	"curate/pipeline/validate/parse"
	"curate/workspace"
)

// A mined task whose fix "fails the tests" only because some of the PR's
// tests fail after the fix and never passed before it on this environment
// (a JDK newer than the project's, a test that expects not to run as root)
// is not broken: SWE-bench leaves such tests out of FAIL_TO_PASS and
// PASS_TO_PASS and grades the rest. curate does the same, once per task:
// it records them (pipeline.ExtraKnownFailures), rebuilds the task so
// test.sh does not let them decide the reward, and validates it again.

// oracleTestsFailed says whether an Oracle run's tests ran and some
// failed: fix_fails_tests, or deps_unreachable or deps_missing read from a
// test's own output. A test that fetches from the internet, which
// validation denies: an HTTP client's test of its default options gets
// getaddrinfo EAI_AGAIN for a public placeholder API in both states; a
// snapshot tool's functional test builds a scratch crate that depends on
// a crates.io version the image never fetched ("no matching package
// named `insta` found" from cargo offline, mitsuhiko/insta PR 924). The
// gold matrix then decides, as for any other test that never passes here:
// only tests that fail after the fix and never passed before it are left
// out, and only when they are all the Oracle's failures.
func oracleTestsFailed(outcome pipeline.Outcome, class string) bool {
	return class == pipeline.ClassFixFailsTests ||
		((class == pipeline.ClassDepsUnreachable || class == pipeline.ClassDepsMissing) && outcome == pipeline.OutcomeOracleFailed)
}

// knownFailuresOf are the tests of t that failed after the fix in its gold
// run and never passed before it (they failed, or did not run because the
// PR's tests do not build without the fix), when they explain its oracle
// failure: NOP passed, Oracle failed only on them, gold ran both states
// (with or without a FAIL_TO_PASS), and no test passed before the fix and
// failed after it (the fix breaking a test is a real failure). nil
// otherwise.
func knownFailuresOf(ctx context.Context, root string, t *pipeline.Task, latest map[string]*pipeline.Run) []string {
	nop, oracle, gold := latest[pipeline.ModeNop], latest[pipeline.ModeOracle], latest[pipeline.ModeGold]
	if nop == nil || oracle == nil || gold == nil || nop.Outcome != pipeline.OutcomeOK {
		return nil
	}
	if len(gold.Flaky) > 0 {
		return nil // see flakyKnownFailures
	}
	if oracle.Failure == nil || !oracleTestsFailed(oracle.Outcome, oracle.Failure.Class) {
		return nil
	}
	// Gold found a FAIL_TO_PASS, or found none while the rest passed in
	// both states: the task is then a true negative (no_fail_to_pass), not
	// a fix that fails, and validating it again says so.
	noF2P := gold.Outcome == pipeline.OutcomeNopPassed && gold.Failure != nil && gold.Failure.Class == pipeline.ClassNoFailToPass
	if !(gold.Outcome == pipeline.OutcomeOK && len(gold.FailToPass) > 0) && !noF2P {
		return nil
	}
	m, err := GoldMatrix(ctx, root, t, gold)
	if err != nil {
		return nil
	}
	var known []string
	for _, row := range m.Rows {
		buggy, fixed := row.Status[validate.StateBuggy], row.Status[validate.StateFixed]
		switch {
		case !allFail(fixed):
			continue
		case slices.ContainsFunc(buggy, parse.Status.Pass):
			return nil // it passed before the fix: the fix breaks it
		}
		known = append(known, row.Test)
	}
	if len(known) == 0 {
		return nil
	}
	// Oracle's own failures, read from its log, must all be among them.
	failed := oracleFailures(root, t, oracle)
	if len(failed) == 0 && sharesOracleExecution(gold, oracle) {
		// Graded from a report file (ctrf.json), the Oracle's log may name
		// no test its format parses (a Make harness printing its own
		// lines); gold's fixed state is that very execution, whose results
		// its log keeps as graded: the tests failing there are the
		// Oracle's failures.
		failed = fixedFailures(m)
	}
	if len(failed) == 0 {
		return nil
	}
	for _, name := range failed {
		if !slices.Contains(known, name) {
			return nil
		}
	}
	slices.Sort(known)
	return known
}

// oracleFailures are the tests an Oracle run's log shows failing, read
// with the task's log format; nil when the log cannot be read.
func oracleFailures(root string, t *pipeline.Task, oracle *pipeline.Run) []string {
	log, err := os.ReadFile(oracle.LogPath)
	if err != nil {
		return nil
	}
	format := ""
	if dir, err := validate.ResolveTaskDir(root, t); err == nil {
		format = validate.TaskLogFormat(dir)
	}
	var out []string
	for name, st := range parse.ForFormat(format, log).Tests {
		if st.Fail() {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// sharesOracleExecution says whether gold's fixed state is the Oracle
// run's own execution (one execution per state), as gold's log says.
func sharesOracleExecution(gold, oracle *pipeline.Run) bool {
	log, err := os.ReadFile(gold.LogPath)
	if err != nil {
		return false
	}
	return validate.SharesOutput(log, validate.StateFixed, oracle.ID, pipeline.ModeOracle)
}

// fixedFailures are the tests of gold matrix m that failed in every
// attempt of the fixed state.
func fixedFailures(m *validate.Matrix) []string {
	var out []string
	for _, row := range m.Rows {
		if allFail(row.Status[validate.StateFixed]) {
			out = append(out, row.Test)
		}
	}
	slices.Sort(out)
	return out
}

func allFail(ss []parse.Status) bool {
	for _, s := range ss {
		if !s.Fail() {
			return false
		}
	}
	return len(ss) > 0
}

// adoptKnownFailures records the known failures of the tasks runs
// validated that have none yet and are invalid only because of them, and
// returns those tasks (with Extra set, not yet stored: their rebuild
// stores them).
func adoptKnownFailures(ctx context.Context, ws *workspace.Workspace, runs []*pipeline.Run) ([]*pipeline.Task, error) {
	var out []*pipeline.Task
	err := eachFailedTask(ctx, ws, runs, func(t *pipeline.Task, latest map[string]*pipeline.Run) error {
		env, _ := EnvDigest(ws.Root, t)
		forgetOtherEnvironments(t, env)
		// Once per task and environment for each: the known failures, then
		// the flaky tests (a task forgiven its known failures may show a
		// flaky one after).
		if len(pipeline.ExtraStrings(t, pipeline.ExtraFlakyTests)) > 0 {
			return nil
		}
		var known, flaky []string
		if len(pipeline.KnownFailures(t)) == 0 {
			known = knownFailuresOf(ctx, ws.Root, t, latest)
		}
		if nop := latest[pipeline.ModeNop]; len(known) == 0 && nop != nil && nop.Outcome == pipeline.OutcomeOK &&
			latest[pipeline.ModeOracle] != nil && latest[pipeline.ModeGold] != nil {
			known, flaky = flakyKnownFailures(ctx, ws.Root, t, latest[pipeline.ModeOracle], latest[pipeline.ModeGold])
			if len(flaky) == 0 {
				return nil
			}
			for _, k := range pipeline.ExtraStrings(t, pipeline.ExtraKnownFailures) {
				if !slices.Contains(known, k) {
					known = append(known, k)
				}
			}
			slices.Sort(known)
		}
		if len(known) == 0 && len(flaky) == 0 {
			return nil
		}
		if t.Extra == nil {
			t.Extra = map[string]any{}
		}
		if len(known) > 0 {
			t.Extra[pipeline.ExtraKnownFailures] = known
		}
		if len(flaky) > 0 {
			t.Extra[pipeline.ExtraFlakyTests] = flaky
		}
		if required := requiredTestsOf(ctx, ws.Root, t, latest[pipeline.ModeGold]); len(required) > 0 {
			t.Extra[pipeline.ExtraRequiredTests] = required // validated again anyway
		}
		if env != "" {
			t.Extra[pipeline.ExtraKnownFailuresEnv] = env
		}
		out = append(out, t)
		return nil
	})
	return out, err
}

// forgetOtherEnvironments drops t's known failures and flaky tests when
// they were measured on another environment than env (a rebuild changed
// its Dockerfile), so they are measured again: a list made by a run whose
// log cut test names in two matched nothing after the fix, and being
// "once per task" it was never made again. A list with no digest (made
// before digests were kept) stays.
func forgetOtherEnvironments(t *pipeline.Task, env string) {
	on, _ := t.Extra[pipeline.ExtraKnownFailuresEnv].(string)
	if on == "" || env == "" || on == env {
		return
	}
	delete(t.Extra, pipeline.ExtraKnownFailures)
	delete(t.Extra, pipeline.ExtraFlakyTests)
	delete(t.Extra, pipeline.ExtraRequiredTests)
	delete(t.Extra, pipeline.ExtraKnownFailuresEnv)
}

// eachFailedTask calls fn once for each mined task of runs whose verdict
// is fix_fails_tests (or deps read from a test's output) or flaky, with
// its latest runs on its current files.
func eachFailedTask(ctx context.Context, ws *workspace.Workspace, runs []*pipeline.Run, fn func(*pipeline.Task, map[string]*pipeline.Run) error) error {
	return eachInvalidTask(ctx, ws, runs, func(t *pipeline.Task) bool {
		return oracleTestsFailed(pipeline.OutcomeOracleFailed, t.Failure.Class) || t.Failure.Class == pipeline.ClassFlaky
	}, fn)
}

// eachInvalidTask calls fn once for each mined, invalid task of runs
// (with a failure) that want keeps, with its latest runs on its current
// files.
func eachInvalidTask(ctx context.Context, ws *workspace.Workspace, runs []*pipeline.Run, want func(*pipeline.Task) bool, fn func(*pipeline.Task, map[string]*pipeline.Run) error) error {
	seen := map[string]bool{}
	for _, r := range runs {
		if r == nil || seen[r.TaskID] {
			continue
		}
		seen[r.TaskID] = true
		t, err := ws.Store.Task(ctx, r.TaskID)
		if err != nil {
			return err
		}
		if !t.Mined() || t.Status != pipeline.StatusInvalid || t.Failure == nil || !want(t) {
			continue
		}
		all, err := ws.Store.Runs(ctx, t.ID)
		if err != nil {
			return err
		}
		if err := fn(t, pipeline.LatestRuns(all, t.Digest)); err != nil {
			return err
		}
	}
	return nil
}

// rebuildWithKnownFailures rebuilds each task as it was built (same
// strategy and snapshot) so its test.sh leaves its known failures out, and
// returns the jobs to validate it again (nop, oracle, gold). A task that
// does not build again keeps its verdict and is said on warn.
func rebuildWithKnownFailures(ctx context.Context, ws *workspace.Workspace, tasks []*pipeline.Task, warn io.Writer) ([]validate.Job, error) {
	fc, _, err := MineFilter(ws, MineOptions{Preset: "none"})
	if err != nil {
		return nil, err
	}
	cfg := buildConfig(ctx, ws, fc)
	var again []*pipeline.Task
	for _, t := range tasks {
		at := BuildStrategy(t)
		if s, _ := t.Extra[pipeline.ExtraSnapshot].(string); at == pipeline.AtSnapshot && s != "" {
			at += ":" + s
		}
		known := pipeline.KnownFailures(t)
		r, err := buildAt(ctx, ws, t, cfg, at)
		if err != nil {
			return nil, err
		}
		if r.Status != string(pipeline.StatusBuilt) {
			fmt.Fprintf(warn, "%s: the rebuild that records the tests gold measured (%s) did not build (%s): verdict kept\n",
				t.ID, strings.Join(envgen.FirstOf(append(known, pipeline.RequiredTests(t)...), 3), ", "), r.Status)
			continue
		}
		if len(known) > 0 {
			fmt.Fprintf(warn, "%s: %d test(s) fail after the fix and never passed before it, or change status between repeats, on this environment (%s): they no longer decide the reward; validating again\n",
				t.ID, len(known), strings.Join(envgen.FirstOf(known, 3), ", "))
		}
		if required := pipeline.RequiredTests(t); len(required) > 0 {
			fmt.Fprintf(warn, "%s: test.sh now requires the %d FAIL_TO_PASS test(s) gold found to be reported passed (%s); validating again\n",
				t.ID, len(required), strings.Join(envgen.FirstOf(required, 3), ", "))
		}
		again = append(again, t)
	}
	modes := []string{pipeline.ModeNop, pipeline.ModeOracle, pipeline.ModeGold}
	jobs, _ := validate.Jobs(ws.Root, again, modes)
	return jobs, nil
}
