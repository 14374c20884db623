package app

import (
	"context"
	"fmt"
	"sort"
	"strings"

	gitcmd "curate/internal/git"
	"curate/pipeline"
	"curate/pipeline/envgen"
	"curate/pipeline/filter"
	"curate/pipeline/validate"
	"curate/pipeline/validate/parse"
	"curate/workspace"
)

// An environment check that fails says which tests failed and how, and
// the curator may take them as known failures (AcceptEnvFailures): PRs
// whose tests do not touch them then mirror onto the snapshot instead of
// each building at its merge commit, a full configure and compile apiece
// for a C library whose suite has a few tests that need the network.

// MaxEnvFailures is how many failing tests a check records by name.
const MaxEnvFailures = 200

// envFailures names the failing tests, sorted, each with the first error
// line the log shows for it (parse.FailureMessages reads a bounded
// number; the rest are named without one).
func envFailures(format string, log []byte, failing []string) []EnvFailure {
	sort.Strings(failing)
	failing = failing[:min(len(failing), MaxEnvFailures)]
	msgs := parse.FailureMessages(format, log, failing)
	out := make([]EnvFailure, len(failing))
	for i, name := range failing {
		out[i] = EnvFailure{Test: name, Error: msgs[name]}
	}
	return out
}

// AcceptEnvFailures records the curator's decision that the failing
// tests of repo's last environment check are known failures of its
// snapshot. It refuses a check that did not run its suite.
func AcceptEnvFailures(ws *workspace.Workspace, repo string) (*RepoState, error) {
	st, err := RepoStateOf(ws, repo)
	if err != nil {
		return nil, err
	}
	c := st.EnvCheck
	switch {
	case c == nil:
		return nil, fmt.Errorf("%s: no environment check yet (curate env check %s)", repo, repo)
	case c.OK:
		return nil, fmt.Errorf("%s: the environment check passed (%s): nothing to accept", repo, c)
	case c.Total == 0 || c.Error != "":
		return nil, fmt.Errorf("%s: the environment check has no per-test results to accept (%s)", repo, c)
	case c.Snapshot != st.Snapshot:
		return nil, fmt.Errorf("%s: the check ran at %s, the snapshot is now %s: check again (curate env check %s)", repo, ShortRev(c.Snapshot), ShortRev(st.Snapshot), repo)
	}
	c.FailuresAccepted = true
	return st, saveRepoState(ws, st)
}

// touchedFailures says why t must not mirror onto the check's snapshot:
// one of its test files holds a test that failed there and the failures
// were accepted (it would fail in both states), or gave no result before
// the check's budget ran out. "" when it may.
func touchedFailures(ctx context.Context, t *pipeline.Task, cfg envgen.Config, c *EnvCheck) string {
	failures := !c.OK && len(c.Failing) > 0
	if !failures && len(c.LeftOut) == 0 {
		return ""
	}
	files, err := prTestFiles(ctx, t, cfg.Filter)
	if err != nil {
		return "its test files are unknown (" + err.Error() + ")"
	}
	if why := leftOutOf(files, c); why != "" || !failures {
		return why
	}
	if c.Failed > len(c.Failing) {
		return fmt.Sprintf("the env check's failures are accepted, but only %d of its %d failing tests are named", len(c.Failing), c.Failed)
	}
	for _, f := range files {
		for _, e := range c.Failing {
			if validate.TestMayLiveIn(f, e.Test, t.Repo) {
				return fmt.Sprintf("its test file %s holds %s, which failed in the env check", f, e.Test)
			}
		}
	}
	return ""
}

// prTestFiles are the test files the PR changes (the filter's split).
func prTestFiles(ctx context.Context, t *pipeline.Task, fc *filter.Config) ([]string, error) {
	if fc == nil {
		fc = &filter.Config{}
	}
	out, err := gitcmd.Output(ctx, t.SourcePath, "diff", "--name-only", "--no-renames", t.BaseCommit, t.HeadCommit)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, p := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if p != "" && fc.Classify(p) == filter.KindTest {
			files = append(files, p)
		}
	}
	return files, nil
}
