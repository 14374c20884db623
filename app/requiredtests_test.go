package app

import (
	"context"
	"reflect"
	"testing"
	"time"

	"curate/pipeline"
)

// google/glog PR 1058 (dev): the bug compiles the PR's new test out, so
// NOP's test.sh ran the rest, all passing, and scored 1 while gold found
// the test FAIL_TO_PASS (missing before the fix). curate adopts it as
// required, so test.sh grades as gold does; a test that failed before
// the fix, or a gold run read from the console log, is not adopted.
func TestAdoptRequiredTests(t *testing.T) {
	const (
		old    = "curate: gold: test PASSED \"symbolize.symbolize\"\n"
		absent = old
		failed = old + "curate: gold: test FAILED \"demangle.demangle\"\n"
		fixed  = old + "curate: gold: test PASSED \"demangle.demangle\"\n"
	)
	cases := []struct {
		name, gold string
		nop        pipeline.Outcome
		want       []string
	}{
		{"missing before the fix", goldLogFrom("ctrf.json", absent, fixed), pipeline.OutcomeNopPassed, []string{"demangle.demangle"}},
		{"failing before the fix", goldLogFrom("ctrf.json", failed, fixed), pipeline.OutcomeNopPassed, nil},
		{"nop scored 0", goldLogFrom("ctrf.json", absent, fixed), pipeline.OutcomeOK, nil},
		{"graded from the log", goldLog("PASSED tests/a.py::old\n", "PASSED tests/a.py::old\nPASSED demangle.demangle\n"), pipeline.OutcomeNopPassed, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			ws := openTestWorkspace(t)
			task := &pipeline.Task{ID: "glog-1058", Source: "git", Repo: "o/n", Status: pipeline.StatusInvalid, Digest: "d",
				Failure: &pipeline.Failure{Class: pipeline.ClassNoFailToPass}}
			if err := ws.Store.UpsertTasks(ctx, []*pipeline.Task{task}); err != nil {
				t.Fatal(err)
			}
			at := time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)
			runs := []*pipeline.Run{
				{ID: "n", TaskID: task.ID, Mode: pipeline.ModeNop, Outcome: c.nop, Digest: "d", StartedAt: at},
				{ID: "o", TaskID: task.ID, Mode: pipeline.ModeOracle, Outcome: pipeline.OutcomeOK, Digest: "d", StartedAt: at},
				{ID: "g", TaskID: task.ID, Mode: pipeline.ModeGold, Outcome: pipeline.OutcomeOK, Digest: "d", StartedAt: at,
					FailToPass: []string{"demangle.demangle"}, LogPath: writeLog(t, t.TempDir(), "gold.log", c.gold)},
			}
			for _, r := range runs {
				if err := ws.Store.SaveRun(ctx, r); err != nil {
					t.Fatal(err)
				}
			}
			got, err := adoptRequiredTests(ctx, ws, runs)
			if err != nil {
				t.Fatal(err)
			}
			var required []string
			if len(got) == 1 {
				required = pipeline.ExtraStrings(got[0], pipeline.ExtraRequiredTests)
			}
			if !reflect.DeepEqual(required, c.want) {
				t.Errorf("required %v (of %d tasks), want %v", required, len(got), c.want)
			}
		})
	}
}
