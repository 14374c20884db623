package cli

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"curate/pipeline"
	"curate/pipeline/stats"
	"curate/store"
)

// `curate funnel` prints each repo's steps, no_fail_to_pass apart and the
// failures by class; --json the same numbers; show prints a task's class.
func TestFunnelAndShowFailure(t *testing.T) {
	ws := newWorkspace(t)
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(ws, ".curate", "curate.db"))
	if err != nil {
		t.Fatal(err)
	}
	missing := &pipeline.Failure{Class: pipeline.ClassDepsMissing, Evidence: "E   ModuleNotFoundError: No module named 'simplejson'",
		Suggestion: `[repos."o/a"] dockerfile = "RUN python3 -m pip install simplejson"`}
	tasks := []*pipeline.Task{
		{ID: "o__a-1", Repo: "o/a", Source: "git", Status: pipeline.StatusValid, TaskDir: "tasks/o__a-1", Digest: "d"},
		{ID: "o__a-2", Repo: "o/a", Source: "git", Status: pipeline.StatusInvalid, TaskDir: "tasks/o__a-2", Digest: "d", Failure: missing},
		{ID: "o__a-3", Repo: "o/a", Source: "git", Status: pipeline.StatusInvalid, TaskDir: "tasks/o__a-3", Digest: "d",
			Failure: &pipeline.Failure{Class: pipeline.ClassNoFailToPass, Evidence: "1 tests, buggy→fixed: t PASSED→PASSED"}},
		{ID: "o__b-1", Repo: "o/b", Source: "github", Status: pipeline.StatusCandidate},
	}
	if err := st.UpsertTasks(ctx, tasks); err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"nop", "oracle", "gold"} {
		st.SaveRun(ctx, &pipeline.Run{ID: "r-" + m, TaskID: "o__a-1", Mode: m, Outcome: pipeline.OutcomeOK, Digest: "d"})
		st.SaveRun(ctx, &pipeline.Run{ID: "s-" + m, TaskID: "o__a-3", Mode: m, Outcome: pipeline.OutcomeOK, Digest: "d"})
	}
	st.SaveRun(ctx, &pipeline.Run{ID: "s-gold2", TaskID: "o__a-3", Mode: "gold", Outcome: pipeline.OutcomeNopPassed, Digest: "d",
		Failure: tasks[2].Failure, StartedAt: tasks[0].CreatedAt.AddDate(1, 0, 0)})
	st.SaveRun(ctx, &pipeline.Run{ID: "t-oracle", TaskID: "o__a-2", Mode: "oracle", Outcome: pipeline.OutcomeOracleFailed, Digest: "d", Failure: missing})
	st.Close()

	code, out, errs := cli(t, "-w", ws, "funnel")
	if code != 0 {
		t.Fatalf("funnel: %d %s", code, errs)
	}
	for _, want := range []string{"o/a\n  mined                    3\n  passed the filter        3\n  built                    3\n  NOP 0                    2  (-1)\n  Oracle 1                 2\n  >=1 FAIL_TO_PASS         1  (-1)\n  valid                    1",
		"  no_fail_to_pass          1  e.g. o__a-3", "    deps_missing           1  e.g. o__a-2", "o/b\n  mined                    1", "not built yet            1", "total\n  mined                    4"} {
		if !strings.Contains(out, want) {
			t.Errorf("funnel lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = cli(t, "-w", ws, "funnel", "--repo", "o/a", "--json")
	var f stats.Funnel
	if code != 0 || json.Unmarshal([]byte(out), &f) != nil || len(f.Repos) != 1 || f.Repos[0].Valid != 1 || f.Repos[0].Failures[0].Class != pipeline.ClassDepsMissing {
		t.Fatalf("funnel --json: %d %s", code, out)
	}
	if code, _, errs := cli(t, "-w", ws, "funnel", "--repo", "x/y"); code == 0 || !strings.Contains(errs, `no mined task of repo "x/y"`) {
		t.Errorf("unknown repo: %d %s", code, errs)
	}
	code, out, _ = cli(t, "-w", ws, "show", "o__a-2")
	if code != 0 || !strings.Contains(out, "class                  deps_missing\nevidence               E   ModuleNotFoundError: No module named 'simplejson'\nsuggestion             [repos.\"o/a\"] dockerfile") {
		t.Errorf("show:\n%s", out)
	}
	code, out, _ = cli(t, "-w", ws, "show", "o__a-2", "--json")
	if code != 0 || !strings.Contains(out, "\"failure\": {\n    \"class\": \"deps_missing\"") {
		t.Errorf("show --json:\n%s", out)
	}
	code, out, _ = cli(t, "-w", ws, "runs", "show", "t-oracle")
	if code != 0 || !strings.Contains(out, "class        deps_missing") || !strings.Contains(out, "suggestion   [repos.\"o/a\"]") {
		t.Errorf("runs show:\n%s", out)
	}
}
