package main

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"curate/pipeline"
	"curate/pipeline/profiles"
	"curate/pipeline/score"
	"curate/workspace"
)

func init() { register(newScoreCmd) }

func newScoreCmd(app *App) *cobra.Command {
	var profileFile string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "score [ID...]",
		Short: "Recompute SDLC phase, MCP benefit score and calibrated difficulty from the profile's rules",
		Long: `Recompute every task's (or the named tasks') computed values from the profile:
language overrides, SDLC phase, MCP benefit score with its four components and
the rule behind each, and the calibrated difficulty. The curator's labels are
never touched: a difficulty or phase label still wins.`,
		Example: `  curate score                          # after editing the profile
  curate score sgt-008 big-code-k8s-001
  curate score --profile my-rules.toml --json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			ws, err := app.Workspace(ctx)
			if err != nil {
				return err
			}
			scorer, name, err := loadScorer(ws, profileFile)
			if err != nil {
				return err
			}
			scored, changed, err := rescoreStored(ctx, ws, scorer, args)
			if err != nil {
				return err
			}
			res := map[string]any{"profile": name, "scored": scored, "changed": changed}
			if asJSON {
				return writeJSON(app.Out, res)
			}
			fmt.Fprintf(app.Out, "scored %d tasks with profile %s: %d changed\n", scored, name, changed)
			return nil
		},
	}
	cmd.Flags().StringVar(&profileFile, "profile", "", "profile TOML file overriding the workspace's profile")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the counts as JSON")
	return cmd
}

// loadScorer compiles the workspace's profile ([profile] name/file in
// curate.toml, the file relative to the workspace), or flagFile instead of
// the configured file. It returns the profile's display name.
func loadScorer(ws *workspace.Workspace, flagFile string) (*score.Scorer, string, error) {
	name, file := "", flagFile
	if ws != nil {
		name = ws.Config.Profile.Name
		if file == "" && ws.Config.Profile.File != "" {
			file = ws.Config.Profile.File
			if !filepath.IsAbs(file) {
				file = filepath.Join(ws.Root, file)
			}
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

// tasksByID loads the named tasks (prefixes allowed), or all without bodies.
func tasksByID(ctx context.Context, ws *workspace.Workspace, ids []string) ([]*pipeline.Task, error) {
	if len(ids) == 0 {
		return ws.Store.Tasks(ctx)
	}
	var out []*pipeline.Task
	for _, id := range ids {
		full, err := ws.Store.ResolveID(ctx, id)
		if err != nil {
			return nil, err
		}
		t, err := ws.Store.Task(ctx, full)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// rescoreStored re-scores the named tasks (all when ids is empty) and
// writes those whose computed values changed.
func rescoreStored(ctx context.Context, ws *workspace.Workspace, s *score.Scorer, ids []string) (scored, changed int, err error) {
	tasks, err := tasksByID(ctx, ws, ids)
	if err != nil {
		return 0, 0, err
	}
	diff := rescore(s, tasks)
	if err := ws.Store.UpdateComputed(ctx, diff); err != nil {
		return 0, 0, err
	}
	return len(tasks), len(diff), nil
}

// rescore applies the scorer and returns the tasks whose computed values
// changed.
func rescore(s *score.Scorer, tasks []*pipeline.Task) []*pipeline.Task {
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
