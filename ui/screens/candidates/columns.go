package candidates

import (
	"cmp"
	"strconv"
	"strings"

	"curate/pipeline"
	"curate/ui/components/frame"
	"curate/ui/shared"
)

// column is one column of the Candidates table. Lower prio columns are
// dropped first when the terminal is narrow; prio 10 (ID, STATUS, VALID:
// which task, where it stands, what validation said) is never dropped.
// Grow columns take spare width.
type column struct {
	title string
	width int
	prio  int
	grow  bool
	right bool
	// middle cuts a long value in its middle: ids share long prefixes
	// (c_architectural_understanding_…) and differ at the end.
	middle bool
	cell   func(t *pipeline.Task, c *shared.Catalog) string
	cmp    func(a, b *pipeline.Task, c *shared.Catalog) int
}

// validation is the verdict the task's runs reached (valid, or the
// invalid task's class), "undecided" when runs exist but do not settle it
// (a mined task without gold), "~" marking a newest run on other files
// than the task has now. Never a run's "ok" alone: one ok mode is not a
// valid task.
func validation(t *pipeline.Task, c *shared.Catalog) string {
	r := c.Latest[t.ID]
	if r == nil {
		return "-"
	}
	var s string
	switch {
	case t.Status == pipeline.StatusValid:
		s = "valid"
	case t.Status == pipeline.StatusInvalid && t.Failure != nil && t.Failure.Class != "":
		s = t.Failure.Class
	case t.Status == pipeline.StatusInvalid:
		s = "invalid"
	default:
		s = "undecided"
	}
	if r.Stale(t.Digest) {
		s += "~"
	}
	return s
}

func difficultyCell(t *pipeline.Task) string {
	d := string(t.EffectiveDifficulty())
	if t.Labels.Difficulty != "" {
		return d + "*" // the curator's own label
	}
	if d == "" {
		return "-"
	}
	return d
}

func flags(t *pipeline.Task, c *shared.Catalog) string {
	s := ""
	if c.Selected[t.ID] {
		s += "S"
	}
	if t.Labels.Pinned {
		s += "P"
	}
	if t.Labels.Excluded {
		s += "X"
	}
	if t.Labels.Note != "" {
		s += "n"
	}
	return s
}

func intCell(v int) string {
	if v == 0 {
		return "-"
	}
	return strconv.Itoa(v)
}

var tableColumns = []column{
	{title: "ID", width: 20, prio: 10, grow: true, middle: true,
		cell: func(t *pipeline.Task, _ *shared.Catalog) string { return frame.CleanLine(t.ID) },
		cmp:  func(a, b *pipeline.Task, _ *shared.Catalog) int { return pipeline.CompareIDs(a.ID, b.ID) }},
	{title: "BENCHMARK", width: 15, prio: 5,
		cell: func(t *pipeline.Task, _ *shared.Catalog) string { return frame.CleanLine(t.Benchmark) },
		cmp:  func(a, b *pipeline.Task, _ *shared.Catalog) int { return strings.Compare(a.Benchmark, b.Benchmark) }},
	{title: "REPO", width: 20, prio: 7, grow: true,
		cell: func(t *pipeline.Task, _ *shared.Catalog) string { return frame.CleanLine(t.Repo) },
		cmp:  func(a, b *pipeline.Task, _ *shared.Catalog) int { return strings.Compare(a.Repo, b.Repo) }},
	{title: "LANG", width: 10, prio: 8,
		cell: func(t *pipeline.Task, _ *shared.Catalog) string { return frame.CleanLine(t.Language) },
		cmp:  func(a, b *pipeline.Task, _ *shared.Catalog) int { return strings.Compare(a.Language, b.Language) }},
	{title: "PHASE", width: 15, prio: 7,
		cell: func(t *pipeline.Task, _ *shared.Catalog) string { return shared.ShortPhase(frame.CleanLine(t.Phase())) },
		cmp: func(a, b *pipeline.Task, _ *shared.Catalog) int {
			return cmp.Compare(pipeline.PhaseRank(a.Phase()), pipeline.PhaseRank(b.Phase()))
		}},
	{title: "DIFFICULTY", width: 11, prio: 9,
		cell: func(t *pipeline.Task, _ *shared.Catalog) string { return difficultyCell(t) },
		cmp: func(a, b *pipeline.Task, _ *shared.Catalog) int {
			return cmp.Compare(a.EffectiveDifficulty().Rank(), b.EffectiveDifficulty().Rank())
		}},
	{title: "FILES", width: 5, prio: 4, right: true,
		cell: func(t *pipeline.Task, _ *shared.Catalog) string {
			return intCell(t.Features.Int(pipeline.FeatFilesChanged))
		},
		cmp: func(a, b *pipeline.Task, _ *shared.Catalog) int {
			return cmp.Compare(a.Features.Int(pipeline.FeatFilesChanged), b.Features.Int(pipeline.FeatFilesChanged))
		}},
	{title: "LOC", width: 6, prio: 4, right: true,
		cell: func(t *pipeline.Task, _ *shared.Catalog) string {
			return intCell(t.Features.Int(pipeline.FeatLOCChanged))
		},
		cmp: func(a, b *pipeline.Task, _ *shared.Catalog) int {
			return cmp.Compare(a.Features.Int(pipeline.FeatLOCChanged), b.Features.Int(pipeline.FeatLOCChanged))
		}},
	{title: "SCORE", width: 6, prio: 9, right: true,
		cell: func(t *pipeline.Task, _ *shared.Catalog) string { return strconv.FormatFloat(t.Score, 'f', 3, 64) },
		cmp:  func(a, b *pipeline.Task, _ *shared.Catalog) int { return cmp.Compare(a.Score, b.Score) }},
	{title: "STATUS", width: 9, prio: 10,
		cell: func(t *pipeline.Task, _ *shared.Catalog) string { return string(t.Status) },
		cmp: func(a, b *pipeline.Task, _ *shared.Catalog) int {
			return strings.Compare(string(a.Status), string(b.Status))
		}},
	{title: "VALID", width: 14, prio: 10,
		cell: validation,
		cmp: func(a, b *pipeline.Task, c *shared.Catalog) int {
			return strings.Compare(validation(a, c), validation(b, c))
		}},
	{title: "SPXn", width: 4, prio: 9,
		cell: func(t *pipeline.Task, c *shared.Catalog) string { return flags(t, c) },
		cmp:  func(a, b *pipeline.Task, c *shared.Catalog) int { return strings.Compare(flags(a, c), flags(b, c)) }},
}

// layoutColumns picks the columns that fit in w cells (after the two-cell
// cursor/mark gutter) and their widths.
func layoutColumns(w int) (cols []int, widths []int) {
	avail := w - 2
	keep := make([]bool, len(tableColumns))
	for i := range keep {
		keep[i] = true
	}
	total := func() int {
		n := 0
		for i, c := range tableColumns {
			if keep[i] {
				n += c.width + 1
			}
		}
		return n
	}
	for total() > avail {
		low, lowPrio := -1, 1<<30
		for i, c := range tableColumns {
			if keep[i] && c.prio < lowPrio {
				low, lowPrio = i, c.prio
			}
		}
		if low < 0 || tableColumns[low].prio >= 10 {
			break
		}
		keep[low] = false
	}
	spare := max(avail-total(), 0)
	growers := 0
	for i, c := range tableColumns {
		if keep[i] && c.grow {
			growers++
		}
	}
	for i, c := range tableColumns {
		if !keep[i] {
			continue
		}
		wd := c.width
		if c.grow && growers > 0 {
			wd += spare / growers
		}
		cols = append(cols, i)
		widths = append(widths, wd)
	}
	return cols, widths
}
