package app

import (
	"bytes"
	"context"
	"sort"

	"curate/pipeline"
	"curate/pipeline/filter"
	"curate/pipeline/validate"
	"curate/pipeline/validate/parse"
	"curate/workspace"
)

// An environment check runs what the mined PRs need, not every suite of
// a monorepo: by default only the test files the repository's mined PRs
// change ([env_check] scope = "touched"), within a time budget per
// language ([env_check] budget, budgets). A check that runs out keeps
// the results it has; the PRs whose test files gave none build at their
// merge commit, and the check names those files.

// checkScope is the test files the check runs: those the mined PRs
// change, or nil for every test file (scope = "all").
func checkScope(ctx context.Context, ws *workspace.Workspace, tasks []*pipeline.Task, fc *filter.Config) ([]string, error) {
	if ws.Config.EnvCheck.Scope == "all" {
		return nil, nil
	}
	seen := map[string]bool{}
	only := []string{}
	for _, t := range tasks {
		files, err := prTestFiles(ctx, t, fc)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			if !seen[f] {
				seen[f] = true
				only = append(only, f)
			}
		}
	}
	sort.Strings(only)
	return only, nil
}

func scopeName(only []string) string {
	if only == nil {
		return "all"
	}
	return "touched"
}

// leftOut are the files no test result of rep belongs to.
func leftOut(files []string, rep *parse.Report, repo string) []string {
	var out []string
	for _, f := range files {
		reached := false
		for id := range rep.Tests {
			if validate.TestMayLiveIn(f, id, repo) {
				reached = true
				break
			}
		}
		if !reached {
			out = append(out, f)
		}
	}
	return out
}

// leftOutOf says why t must not mirror onto a check that ran out of time
// before its test files gave a result ("" when they did).
func leftOutOf(files []string, c *EnvCheck) string {
	for _, f := range files {
		for _, l := range c.LeftOut {
			if f == l {
				return "its test file " + f + " gave no result before the env check's " + c.Budget + " budget ran out"
			}
		}
	}
	return ""
}

// cappedBuffer keeps the first max bytes written to it and accepts the
// rest unwritten, so a suite that prints without end cannot fill memory.
type cappedBuffer struct {
	buf bytes.Buffer
	max int
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.buf.Len(); room > 0 {
		b.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (b *cappedBuffer) Bytes() []byte { return b.buf.Bytes() }
