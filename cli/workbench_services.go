package cli

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"curate/app"
	"curate/pipeline"
	"curate/pipeline/export"
	"curate/pipeline/selection"
	"curate/pipeline/validate"
	"curate/ui"
	"curate/workspace"
)

// workbenchServices wires the Runs, Quotas and Export screens to the app
// functions behind curate validate, select and export. engine names where
// validations go (--engine: "" or "docker", or "kubernetes").
func workbenchServices(env *Env, ws *workspace.Workspace, logger *log.Logger, engine string) *ui.Services {
	return &ui.Services{
		Validate: func(ctx context.Context, jobs []validate.Job, o app.ValidateOptions) ([]*pipeline.Run, error) {
			o.Engines, o.Engine = env.engines, engine
			o.Warn = logger.Writer() // engines left out, runs recovered
			return app.Validate(ctx, ws, jobs, o)
		},
		Cancel:      func(runID string) error { return app.RequestCancel(ws, runID) },
		Concurrency: ws.Config.Docker.Concurrency, // 0: each engine's own size
		CheckEngines: func(ctx context.Context) app.EngineReport {
			if env.engines != nil {
				return app.CheckRunners(ctx, env.engines)
			}
			return app.CheckEngines(ctx, ws, nil)
		},
		Selection: func() (selection.Config, workspace.SelectionConfig, error) {
			return app.SelectionSettings(ws)
		},
		SaveSelection: func(budget *int, quotas []pipeline.Quota) error {
			return workspace.SaveSelection(ws.ConfigPath(), budget, quotas)
		},
		ExportInput: func(ctx context.Context, name string, cfg selection.Config, res *selection.Result, format string) (*export.Input, error) {
			return app.SolveExportInput(ctx, ws, name, cfg, res, format)
		},
		Export: func(ctx context.Context, name string, cfg selection.Config, res *selection.Result, req app.ExportRequest) (*app.ExportOutcome, error) {
			sel, err := app.SolveSelection(ctx, ws, name, cfg, res)
			if err != nil {
				return nil, err
			}
			// The curator typed the folder: make its parent as the CLI's --out user would.
			if err := os.MkdirAll(filepath.Dir(req.Dest), 0o755); err != nil {
				return nil, fmt.Errorf("export: %w", err)
			}
			req.Unsaved = true
			return app.Export(ctx, ws, sel, req)
		},
		// The jobs list (J) runs import, mine, build and a repo rebuild on ws.
		JobServices: ui.JobServices{Workspace: ws,
			RebuildRepo: app.RebuildRepoJob(ws, app.ValidateOptions{Engines: env.engines, Engine: engine, Warn: logger.Writer()}),
			Campaign:    app.CampaignJob(ws, app.ValidateOptions{Engines: env.engines, Engine: engine, Warn: logger.Writer()})},
		RepoConfigs: func() map[string]workspace.RepoConfig { return ws.Config.Repos },
		RepoState:   func(repo string) (*app.RepoState, error) { return app.RepoStateOf(ws, repo) },
		EditRepoProfile: func(ctx context.Context, repo string) (*app.ProfileEdit, error) {
			return app.StartProfileEdit(ctx, ws, repo)
		},
		RebuildRepoTargets: func(ctx context.Context, repo string) (*app.RebuildResult, []*pipeline.Task, error) {
			return app.RebuildAndTargets(ctx, ws, repo, app.BuildOptions{})
		},
		AcceptEnvFailures: func(repo string) (*app.RepoState, error) { return app.AcceptEnvFailures(ws, repo) },
	}
}
