package store

import (
	"context"
	"reflect"
	"testing"

	"curate/pipeline"
)

// TestListingMatchesSingleReads: what Tasks reads from the packed column
// equals what Task reads from the plain columns, after every kind of write.
func TestListingMatchesSingleReads(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	full := &pipeline.Task{ID: "x__y-1", Benchmark: "mined", Source: "git", SourcePath: "/r", Repo: "x/y", PR: 1,
		BaseCommit: "b", HeadCommit: "h", Title: "Fix \x1b[31m thing\twith tab\n", Body: "body", Language: "go", Category: "bug_fix",
		SDLCPhase: "Implementation (bug fix)", PhaseRule: "default", Score: 0.1234,
		Breakdown:          pipeline.ScoreBreakdown{ContextComplexity: 0.4, CrossFileDeps: 0.15, Rules: map[string]string{"cross_file_deps": "files/20"}},
		DifficultyImported: "hard", DifficultyCalibrated: "medium", DifficultyRule: "r", Status: pipeline.StatusRejected,
		Reasons: []string{"no tests", "1:2"}, TaskDir: "/t", Digest: "d", Extra: map[string]any{"patch": "diff --git a b\n", "n": 1.5}}
	full.Features.Set(pipeline.FeatFilesChanged, 3, "git numstat")
	full.Features.Sources["language"] = "file extensions"
	seed(t, s, "plain")
	if err := s.UpsertTasks(ctx, []*pipeline.Task{full}); err != nil {
		t.Fatal(err)
	}
	check := func(step string) {
		t.Helper()
		list, err := s.Tasks(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, got := range list {
			want, err := s.Task(ctx, got.ID)
			if err != nil {
				t.Fatal(err)
			}
			want.Body = ""
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: listing and single read differ for %s:\nlist %+v\none  %+v", step, got.ID, got, want)
			}
		}
	}
	check("upsert")
	label(t, s, "x__y-1", pipeline.FieldDifficulty, "expert")
	label(t, s, "x__y-1", pipeline.FieldExcluded, "true")
	check("label")
	full.Score, full.SDLCPhase = 0.9, "Testing & QA"
	if err := s.UpdateComputed(ctx, []*pipeline.Task{full}); err != nil {
		t.Fatal(err)
	}
	check("re-score")
	seed(t, s, "plain") // a second upsert of an existing id keeps created_at
	check("re-upsert")
}

func FuzzUnpackTask(f *testing.F) {
	p, _ := packTask(&pipeline.Task{ID: "a", Title: "t", Reasons: []string{"r"}}, "c", "u")
	f.Add(p)
	f.Add("1")
	f.Add("13:abc")
	f.Fuzz(func(t *testing.T, s string) {
		var task pipeline.Task
		unpackTask(s, &task) // must not panic
	})
}
