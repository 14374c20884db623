package query

import (
	"fmt"
	"sort"
	"strings"

	"curate/pipeline"
	"curate/pipeline/statement"
)

// closedValues are the only values some fields can hold, so a typo is an
// error naming the nearest allowed values instead of an empty list.
var closedValues = map[string][]string{
	"review":             {"unreviewed", "reviewed", "flagged"},
	"fix_time":           append([]string{""}, pipeline.FixTimes...),
	"status":             statuses(),
	"difficulty":         difficulties(),
	"excluded":           {"true", "false"},
	"pinned":             {"true", "false"},
	"labelled":           {"true", "false"},
	"flag":               statement.AllFlags,
	"instruction_source": {"", statement.SourceIssue, statement.SourcePRBody, statement.SourceCommit, statement.SourceChangelog, statement.SourceDocComment, statement.SourceDocs, statement.SourceTitle, statement.SourceCurator},
}

func statuses() []string {
	var out []string
	for _, s := range pipeline.Statuses {
		out = append(out, string(s))
	}
	return out
}

func difficulties() []string {
	out := []string{""} // not labelled
	for _, d := range pipeline.Difficulties {
		out = append(out, string(d))
	}
	return out
}

// checkClosed refuses a value a closed field cannot hold, naming the
// nearest allowed ones. Phases are checked and written out in full here
// (phase=feature is "Implementation (feature)").
func checkClosed(t *term) error {
	if t.op == "~" {
		return nil
	}
	if t.field == "phase" {
		for i, v := range t.values {
			p, err := pipeline.ParsePhase(v)
			if err != nil {
				return fmt.Errorf("phase: %q is not a phase%s (phases: %s)", v, nearestNote(v, pipeline.SDLCPhases), strings.Join(pipeline.SDLCPhases, "; "))
			}
			t.values[i] = strings.ToLower(p)
		}
		return nil
	}
	allowed := closedValues[t.field]
	if allowed == nil {
		return nil
	}
	for _, v := range t.values {
		if !contains(allowed, v) {
			return fmt.Errorf("%s: %q is not one of %s%s", t.field, v, shown(allowed), nearestNote(v, allowed))
		}
	}
	return nil
}

// Unseen refuses a value of field that no task in the workspace holds
// (language=pyhton), naming the values seen and the nearest ones. A field
// with no value seen accepts anything: an empty workspace is not a typo.
func (q Query) Unseen(field string, seen []string) error {
	if len(seen) == 0 {
		return nil
	}
	for _, t := range q.terms {
		if t.field != field || t.op == "~" {
			continue
		}
		for _, v := range t.values {
			if !contains(seen, v) {
				sort.Strings(seen)
				return fmt.Errorf("filter %q: %s: no task has %q (this workspace has %s)%s", q.src, field, v, strings.Join(seen, ", "), nearestNote(v, seen))
			}
		}
	}
	return nil
}

func shown(vs []string) string {
	var out []string
	for _, v := range vs {
		if v == "" {
			v = `"" (none)`
		}
		out = append(out, v)
	}
	return strings.Join(out, ", ")
}

// nearestNote is "; did you mean X?" for the allowed values closest to v,
// when one is close enough to be a typo: an edit or a swap per three
// letters, or v is part of it (featur, Implementation (feature)).
func nearestNote(v string, allowed []string) string {
	lv := strings.ToLower(v)
	var best []string
	dist := max(1, len([]rune(v))/3) + 1
	for _, a := range allowed {
		la := strings.ToLower(a)
		if a == "" || la == lv {
			continue
		}
		d := editDistance(lv, la)
		if len(lv) >= 3 && strings.Contains(la, lv) {
			d = min(d, 1)
		}
		switch {
		case d < dist:
			best, dist = []string{a}, d
		case d == dist && best != nil:
			best = append(best, a)
		}
	}
	if len(best) == 0 || len(best) > 3 {
		return ""
	}
	return "; did you mean " + strings.Join(best, " or ") + "?"
}

// editDistance counts the insertions, deletions, substitutions and swaps
// of adjacent letters between a and b (optimal string alignment).
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
