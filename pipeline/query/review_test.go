package query

import (
	"strings"
	"testing"

	"curate/pipeline"
)

func TestReviewTerms(t *testing.T) {
	unreviewed := sample()
	fair := sample()
	fair.Labels.Underspecified, fair.Labels.FalseNegative, fair.Labels.FixTime = "1", "0", "15m-1h"
	flagged := sample()
	flagged.Labels.Underspecified, flagged.Labels.FalseNegative, flagged.Labels.FixTime = "0", "2", ">4h"
	cases := []struct {
		expr string
		want [3]bool // unreviewed, fair, flagged
	}{
		{"review=unreviewed", [3]bool{true, false, false}},
		{"review=reviewed", [3]bool{false, true, false}},
		{"review=flagged", [3]bool{false, false, true}},
		{"review!=unreviewed", [3]bool{false, true, true}},
		{"underspecified<=1", [3]bool{false, true, true}},
		{"underspecified>=1", [3]bool{false, true, false}},
		{"false_negative>=2", [3]bool{false, false, true}},
		{"fix_time=15m-1h", [3]bool{false, true, false}},
		{"fix_time=>4h", [3]bool{false, false, true}},
		{"fix_time=<15m,1h-4h", [3]bool{false, false, false}},
	}
	for _, c := range cases {
		q, err := Parse(c.expr)
		if err != nil {
			t.Fatalf("Parse(%q): %v", c.expr, err)
		}
		for i, task := range []*struct{ name string }{{"unreviewed"}, {"fair"}, {"flagged"}} {
			got := q.Match([]*pipeline.Task{unreviewed, fair, flagged}[i])
			if got != c.want[i] {
				t.Errorf("%q on %s: got %v want %v", c.expr, task.name, got, c.want[i])
			}
		}
	}
}

func TestReviewTermErrors(t *testing.T) {
	for expr, want := range map[string]string{
		"review=done":        `"done" is not one of unreviewed, reviewed, flagged`,
		"fix_time=2h":        `"2h" is not one of`,
		"underspecified>one": "not a number",
	} {
		_, err := Parse(expr)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want error containing %q", expr, err, want)
		}
	}
}
