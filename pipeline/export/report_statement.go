package export

import (
	"sort"

	"curate/pipeline"
	"curate/pipeline/statement"
)

// writeStatementSection counts where the selected tasks' statements came
// from and the flags they carry (flags never block a task; they say what
// a reader of the set should know).
func writeStatementSection(p func(string, ...any), in *Input) {
	sources, flags := map[string]int{}, map[string]int{}
	withInterface, recorded := 0, 0
	for _, it := range in.Selected {
		t := it.Task
		src := pipeline.InstructionSource(t)
		if src == "" {
			continue
		}
		recorded++
		sources[src]++
		for _, f := range pipeline.StatementFlags(t) {
			flags[f]++
		}
		if _, ok := t.Extra[pipeline.ExtraInterface]; ok {
			withInterface++
		}
	}
	p("\n## Problem Statements\n\n")
	if recorded == 0 {
		p("No selected task records where its statement came from (built before curate recorded it).\n")
		return
	}
	p("%d of %d selected tasks record their statement's source; %d carry an Interface section (the new public names their tests use).\n\n",
		recorded, len(in.Selected), withInterface)
	p("| Source | Tasks |\n|--------|-------|\n")
	for _, k := range sortedKeys(sources) {
		p("| %s | %d |\n", cell(k), sources[k])
	}
	p("\n| Flag | Tasks |\n|------|-------|\n")
	for _, f := range statement.AllFlags {
		p("| %s | %d |\n", f, flags[f])
	}
}

func sortedKeys(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
