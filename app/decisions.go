package app

import (
	"curate/pipeline"
	"curate/pipeline/envgen"
)

// ToolchainDecisionsKey is the Task.Extra key holding the last build's
// toolchain choices with their sources (envgen.Plan.Decide).
const ToolchainDecisionsKey = "toolchain_decisions"

// setDecisions records a build's decisions; a build that decided nothing
// leaves no key (and no stale one).
func setDecisions(t *pipeline.Task, ds []envgen.Decision) {
	if len(ds) == 0 {
		delete(t.Extra, ToolchainDecisionsKey)
		return
	}
	list := make([]any, len(ds))
	for i, d := range ds {
		list[i] = map[string]any{"tool": d.Tool, "version": d.Version, "source": d.Source}
	}
	t.Extra[ToolchainDecisionsKey] = list
}

// ToolchainDecisions are the toolchain choices the last build recorded on
// t, fresh or decoded from the store ([] when none).
func ToolchainDecisions(t *pipeline.Task) []envgen.Decision {
	out := []envgen.Decision{}
	raw, _ := t.Extra[ToolchainDecisionsKey].([]any)
	for _, x := range raw {
		m, ok := x.(map[string]any)
		if !ok {
			continue
		}
		s := func(k string) string { v, _ := m[k].(string); return v }
		out = append(out, envgen.Decision{Tool: s("tool"), Version: s("version"), Source: s("source")})
	}
	return out
}
