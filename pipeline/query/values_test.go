package query

import (
	"strings"
	"testing"

	"curate/pipeline"
)

// Each closed field refuses a misspelt value with the nearest allowed one.
func TestClosedValuesNameTheNearest(t *testing.T) {
	cases := map[string]string{
		"status=vaild":              "did you mean valid?",
		"status=bulit,valid":        "did you mean built?",
		"difficulty=hrad":           "did you mean hard?",
		"review=flaged":             "did you mean flagged?",
		"flag=underspec":            "did you mean underspecified?",
		"excluded=ture":             "did you mean true?",
		"pinned=yes":                "is not one of true, false",
		"phase=featur":              "did you mean Implementation (feature)?",
		"instruction_source=prbody": "did you mean pr_body?",
	}
	for expr, want := range cases {
		_, err := Parse(expr)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", expr, err, want)
		}
	}
	for _, ok := range []string{"status=valid,built", "difficulty=", "phase=feature", `phase="Testing & QA"`, "status~val", "excluded=false", "flag!=leak"} {
		if _, err := Parse(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
}

// phase=feature matches the full phase name; a language no task has is
// refused with the ones the workspace has.
func TestPhaseAliasAndUnseenLanguage(t *testing.T) {
	q, err := Parse("phase=feature")
	if err != nil {
		t.Fatal(err)
	}
	if !q.Match(&pipeline.Task{SDLCPhase: "Implementation (feature)"}) || q.Match(&pipeline.Task{SDLCPhase: "Testing & QA"}) {
		t.Error("phase=feature does not match Implementation (feature) alone")
	}
	q, _ = Parse("language=pyhton")
	err = q.Unseen("language", []string{"go", "python"})
	if err == nil || !strings.Contains(err.Error(), "this workspace has go, python); did you mean python?") {
		t.Errorf("unseen language: %v", err)
	}
	if err := q.Unseen("language", nil); err != nil {
		t.Errorf("an empty workspace refuses: %v", err)
	}
	q, _ = Parse("language~pyt")
	if err := q.Unseen("language", []string{"go"}); err != nil {
		t.Errorf("a substring match is not a value: %v", err)
	}
}
