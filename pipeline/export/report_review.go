package export

import "curate/pipeline"

// writeReviewSection counts the human review (SWE-bench Verified shape) of
// the selected tasks: how many were reviewed, flagged, and each score.
func writeReviewSection(p func(string, ...any), in *Input) {
	reviewed, flagged := 0, 0
	under, falseNeg := [4]int{}, [4]int{}
	fix := map[string]int{}
	for _, it := range in.Selected {
		l := it.Task.Labels
		if !l.Reviewed() {
			continue
		}
		reviewed++
		if l.Flagged() {
			flagged++
		}
		c := l.Columns()
		if c.Underspecified != nil {
			under[*c.Underspecified]++
		}
		if c.FalseNegative != nil {
			falseNeg[*c.FalseNegative]++
		}
		if l.FixTime != "" {
			fix[l.FixTime]++
		}
	}
	p("\n## Human Review\n\n")
	p("%d of %d selected tasks were reviewed by a person in the shape of the SWE-bench Verified annotation; "+
		"%d are flagged (underspecified or false_negative %d or more).\n\n", reviewed, len(in.Selected), flagged, pipeline.FlagScore)
	if reviewed == 0 {
		return
	}
	p("| Score | underspecified | false_negative |\n|-------|----------------|----------------|\n")
	for i := range under {
		p("| %d | %d | %d |\n", i, under[i], falseNeg[i])
	}
	p("\n| Fix time | Tasks |\n|----------|-------|\n")
	for _, f := range pipeline.FixTimes {
		p("| %s | %d |\n", f, fix[f])
	}
}
