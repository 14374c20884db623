package query

import (
	"strings"
	"testing"

	"curate/pipeline"
)

func sample() *pipeline.Task {
	t := &pipeline.Task{ID: "navidrome__navidrome-42", Benchmark: "ccb_swebenchpro", Repo: "navidrome/navidrome", Language: "go",
		Category: "debugging", SDLCPhase: "Implementation (bug fix)", DifficultyCalibrated: "hard", Score: 0.71, Status: pipeline.StatusImported}
	t.Features.Set(pipeline.FeatFilesChanged, 5, "test")
	t.Features.Set(pipeline.FeatLOCChanged, 120, "test")
	return t
}

func TestMatch(t *testing.T) {
	cases := []struct {
		expr string
		want bool
	}{
		{"", true},
		{"navidrome", true},
		{"NAVI", true},
		{"pytorch", false},
		{"language=go", true},
		{"language=rust,go", true},
		{"language!=go", false},
		{"-language=go", false},
		{"score>0.7", true},
		{"score>=0.71", true},
		{"score<0.5", false},
		{"files>=5 loc<=120", true},
		{"files>5", false},
		{`phase="Implementation (bug fix)"`, true},
		{"phase~bug", true},
		{"difficulty=hard", true},
		{"pinned=false excluded=false", true},
		{"labelled=true", false},
		{"benchmark=ccb_swebenchpro status=imported", true},
	}
	task := sample()
	for _, c := range cases {
		q, err := Parse(c.expr)
		if err != nil {
			t.Fatalf("Parse(%q): %v", c.expr, err)
		}
		if got := q.Match(task); got != c.want {
			t.Errorf("%q: got %v want %v", c.expr, got, c.want)
		}
	}
}

func TestLabelWins(t *testing.T) {
	task := sample()
	task.Labels.Difficulty = "easy"
	q, _ := Parse("difficulty=easy labelled=true")
	if !q.Match(task) {
		t.Fatal("curator label should be the effective difficulty")
	}
}

func TestParseErrors(t *testing.T) {
	cases := map[string]string{
		"colour=red":  "unknown field",
		"score>high":  "not a number",
		"language>3":  "not numeric",
		`phase="open`: "unterminated quote",
	}
	for expr, want := range cases {
		_, err := Parse(expr)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want error containing %q", expr, err, want)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"language=go", `phase="a b"`, "score>0.5 -x", "=", "-", `"`, "a!=b,c"} {
		f.Add(s)
	}
	task := sample()
	f.Fuzz(func(t *testing.T, s string) {
		q, err := Parse(s)
		if err != nil {
			return
		}
		q.Match(task)
	})
}

func TestStatementFlagTerms(t *testing.T) {
	flagged := &pipeline.Task{ID: "a", Extra: map[string]any{pipeline.ExtraStatementFlags: []any{"leak", "underspecified"}, pipeline.ExtraInstructionSource: "title"}}
	clean := &pipeline.Task{ID: "b", Extra: map[string]any{pipeline.ExtraInstructionSource: "issue"}}
	for expr, want := range map[string][2]bool{
		"flag=leak":                          {true, false},
		"flag=underspecified,link_only":      {true, false},
		"flag!=leak":                         {false, true},
		"-flag=leak":                         {false, true},
		"flag~under":                         {true, false},
		"instruction_source=issue":           {false, true},
		"flag=leak instruction_source=title": {true, false},
	} {
		q, err := Parse(expr)
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		if got := [2]bool{q.Match(flagged), q.Match(clean)}; got != want {
			t.Errorf("%s: matches %v, want %v", expr, got, want)
		}
	}
}
