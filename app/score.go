package app

import (
	"context"
	"fmt"

	"curate/pipeline"
	"curate/pipeline/profiles"
	"curate/pipeline/score"
	"curate/workspace"
)

// ScoreWith applies the workspace's profile (phase, MCP score, calibrated
// difficulty) to tasks from any source, so mined and built tasks are
// scored exactly like imported ones.
func ScoreWith(ws *workspace.Workspace, tasks ...*pipeline.Task) error {
	s, _, err := LoadScorer(ws, "")
	if err != nil {
		return err
	}
	for _, t := range tasks {
		s.Apply(t)
	}
	return nil
}

// LoadScorer compiles the workspace's profile ([profile] name/file in
// curate.toml, the file relative to the workspace), or flagFile instead of
// the configured file. It returns the profile's display name.
func LoadScorer(ws *workspace.Workspace, flagFile string) (*score.Scorer, string, error) {
	name, file := "", flagFile
	if ws != nil {
		var configured string
		name, configured = ProfileSource(ws)
		if file == "" {
			file = configured
		}
	}
	p, err := profiles.Load(name, file)
	if err != nil {
		return nil, "", err
	}
	s, err := score.Compile(p.Score)
	if err != nil {
		where := "profile " + p.Name
		if file != "" {
			where += " (with " + file + ")"
		}
		return nil, "", fmt.Errorf("%s: %w", where, err)
	}
	display := p.Name
	if file != "" {
		display += " + " + file
	}
	return s, display, nil
}

// TasksByID loads the named tasks (prefixes allowed), or all without bodies.
func TasksByID(ctx context.Context, ws *workspace.Workspace, ids []string) ([]*pipeline.Task, error) {
	if len(ids) == 0 {
		return ws.Store.Tasks(ctx)
	}
	var out []*pipeline.Task
	for _, id := range ids {
		t, err := taskByPrefix(ctx, ws, id)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// taskByPrefix loads the one task whose id is id or starts with it.
func taskByPrefix(ctx context.Context, ws *workspace.Workspace, id string) (*pipeline.Task, error) {
	full, err := ws.Store.ResolveID(ctx, id)
	if err != nil {
		return nil, err
	}
	return ws.Store.Task(ctx, full)
}

// RescoreStored re-scores the named tasks (all when ids is empty) and
// writes those whose computed values changed.
func RescoreStored(ctx context.Context, ws *workspace.Workspace, s *score.Scorer, ids []string) (scored, changed int, err error) {
	tasks, err := TasksByID(ctx, ws, ids)
	if err != nil {
		return 0, 0, err
	}
	diff := Rescore(s, tasks)
	if err := ws.Store.UpdateComputed(ctx, diff); err != nil {
		return 0, 0, err
	}
	return len(tasks), len(diff), nil
}

// Rescore applies the scorer and returns the tasks whose computed values
// changed.
func Rescore(s *score.Scorer, tasks []*pipeline.Task) []*pipeline.Task {
	var changed []*pipeline.Task
	for _, t := range tasks {
		before := computed(t)
		s.Apply(t)
		if computed(t) != before {
			changed = append(changed, t)
		}
	}
	return changed
}

// computedValues is what a score writes, in a comparable form.
type computedValues struct {
	language, phase, phaseRule, diff, diffRule, langSource string
	score                                                  float64
	parts                                                  [4]float64
	rules                                                  [4]string
}

func computed(t *pipeline.Task) computedValues {
	b := t.Breakdown
	return computedValues{
		language: t.Language, phase: t.SDLCPhase, phaseRule: t.PhaseRule, diff: string(t.DifficultyCalibrated),
		diffRule: t.DifficultyRule, langSource: fmt.Sprint(t.Extra["language_override"]), score: t.Score,
		parts: [4]float64{b.ContextComplexity, b.CrossFileDeps, b.SemanticSearchPotential, b.TaskCategoryWeight},
		rules: [4]string{b.Rules[score.KeyContext], b.Rules[score.KeyCrossDep], b.Rules[score.KeySemantic], b.Rules[score.KeyCategory]},
	}
}
