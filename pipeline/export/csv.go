package export

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"
)

// CSVHeader is the column order of the CSV export.
var CSVHeader = []string{"task_id", "benchmark", "sdlc_phase", "language", "difficulty", "category", "repo",
	"mcp_benefit_score", "context_complexity", "cross_file_deps", "semantic_search_potential", "task_category_weight",
	"selection_rationale", "task_dir", "underspecified", "false_negative", "fix_time", "review_comment", "reviewer"}

func writeCSV(w io.Writer, in *Input) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVHeader); err != nil {
		return err
	}
	f := func(x float64, places int) string { return strconv.FormatFloat(x, 'f', places, 64) }
	for _, it := range in.Selected {
		t := it.Task
		row := []string{t.ID, t.Benchmark, t.Phase(), t.Language, string(t.EffectiveDifficulty()), t.EffectiveCategory(), t.Repo,
			f(t.Score, 4), f(t.Breakdown.ContextComplexity, 3), f(t.Breakdown.CrossFileDeps, 3),
			f(t.Breakdown.SemanticSearchPotential, 3), f(t.Breakdown.TaskCategoryWeight, 3), it.Rationale, t.TaskDir}
		rc := t.Labels.Columns()
		row = append(row, intOrEmpty(rc.Underspecified), intOrEmpty(rc.FalseNegative), rc.FixTime, rc.ReviewComment, rc.Reviewer)
		for i, v := range row {
			row[i] = defuse(v)
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func intOrEmpty(n *int) string {
	if n == nil {
		return ""
	}
	return strconv.Itoa(*n)
}

// defuse keeps a spreadsheet from running a cell as a formula: text from
// strangers (ids, repos) must not start with = + - @ or a tab.
func defuse(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		if _, err := strconv.ParseFloat(s, 64); err != nil {
			return "'" + s
		}
	}
	return s
}
