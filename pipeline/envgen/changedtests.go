package envgen

import (
	"context"
	"sort"

	"curate/pipeline"
)

// changedTests names the tests whose definitions the PR adds or changes,
// comparing each test file at the PR's base and head (not the tree the
// task holds, which may be a snapshot the PR was mirrored onto). nil when
// the language cannot tell, a test file was deleted, or some change is
// outside every test: then the task runs what its test files define.
func changedTests(ctx context.Context, t *pipeline.Task, planner Language, installs, removes []string) []string {
	namer, ok := planner.(ChangedTestNamer)
	if !ok || len(removes) > 0 || len(installs) == 0 {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for _, f := range installs {
		before, _ := show(ctx, t.SourcePath, t.BaseCommit, f) // a new file has no before
		after, err := show(ctx, t.SourcePath, t.HeadCommit, f)
		if err != nil {
			return nil
		}
		names, ok := namer.ChangedTestNames(f, string(before), string(after))
		if !ok {
			return nil
		}
		for _, n := range names {
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	sort.Strings(out)
	return out
}
