package cli

import (
	"context"
	"io"
	"time"

	"curate/app"
	"curate/pipeline"
	"curate/pipeline/export"
	"curate/pipeline/selection"
	"curate/pipeline/validate"
	"curate/ui"
	"curate/workspace"
)

// workbenchServices wires the Runs, Quotas and Export screens to the code
// behind curate validate, select and export.
func workbenchServices(ws *workspace.Workspace) *ui.Services {
	timeout, _ := time.ParseDuration(ws.Config.Docker.Timeout) // checked by validate's flags path; 0 = task.toml
	return &ui.Services{
		Runners: func(ctx context.Context) ([]validate.Runner, func(), error) {
			rs, err := app.OpenRunners(ctx, ws, app.DockerHosts(ws, nil), io.Discard)
			if err != nil {
				return nil, nil, err
			}
			closeAll := func() {
				for _, r := range rs {
					r.Close()
				}
			}
			if err := app.RecoverInterrupted(ctx, ws, rs, io.Discard); err != nil {
				closeAll()
				return nil, nil, err
			}
			out := make([]validate.Runner, len(rs))
			for i, r := range rs {
				out[i] = r
			}
			return out, closeAll, nil
		},
		Concurrency: max(ws.Config.Docker.Concurrency, 1),
		Timeout:     timeout,
		LogDir:      ws.RunsPath(),
		Selection: func() (selection.Config, workspace.SelectionConfig, error) {
			p, err := app.LoadProfile(ws)
			if err != nil {
				return selection.Config{}, workspace.SelectionConfig{}, err
			}
			// Validate the combination the way `curate select` does.
			if _, err := app.SelectionConfig(ws); err != nil {
				return selection.Config{}, workspace.SelectionConfig{}, err
			}
			cfg, err := workspace.LoadConfig(ws.ConfigPath()) // what is on disk now
			if err != nil {
				return selection.Config{}, workspace.SelectionConfig{}, err
			}
			return p.Selection, cfg.Selection, nil
		},
		SaveSelection: func(budget *int, quotas []pipeline.Quota) error {
			return workspace.SaveSelection(ws.ConfigPath(), budget, quotas)
		},
		SaveSnapshot: func(ctx context.Context, name string, cfg selection.Config, res *selection.Result) error {
			tasks, err := ws.Store.Tasks(ctx)
			if err != nil {
				return err
			}
			sel, _, err := app.Snapshot(name, cfg, tasks, res)
			if err != nil {
				return err
			}
			return ws.Store.SaveSelection(ctx, sel)
		},
		ExportInput: func(ctx context.Context, name string, cfg selection.Config, res *selection.Result, format string) (*export.Input, error) {
			tasks, err := ws.Store.Tasks(ctx)
			if err != nil {
				return nil, err
			}
			sel, _, err := app.Snapshot(name, cfg, tasks, res)
			if err != nil {
				return nil, err
			}
			return app.ExportInput(ctx, ws, sel, format, "", "")
		},
	}
}
