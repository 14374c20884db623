package main

import (
	"context"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"curate/workspace"
)

func init() { register(newDemoCmd) }

func newDemoCmd(app *App) *cobra.Command {
	var dir string
	var noOpen bool
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Create a demo workspace (a few hundred tasks, two built from a fixture repo) and open the workbench",
		Example: `  curate demo                 # in a temp dir, opens the workbench
  curate demo --dir ./demo --no-open && cd demo && curate list`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			root, err := makeDemo(cmd.Context(), app, dir)
			if err != nil {
				return err
			}
			if noOpen || !isTerminal(os.Stdout) {
				fmt.Fprintf(app.Out, "Next: cd %s && curate list   (or: curate --workspace %s)\n", root, root)
				return nil
			}
			app.WorkspaceFlag = root
			return openWorkbench(cmd.Context(), app)
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "create the demo here instead of a temp dir")
	cmd.Flags().BoolVar(&noOpen, "no-open", false, "create the workspace and print its path without opening the workbench")
	return cmd
}

// makeDemo creates and fills a demo workspace and returns its root.
func makeDemo(ctx context.Context, app *App, dir string) (string, error) {
	if dir == "" {
		tmp, err := os.MkdirTemp("", "curate-demo-")
		if err != nil {
			return "", fmt.Errorf("demo: %w", err)
		}
		dir = tmp
	}
	root, err := workspace.Init(dir)
	if err != nil {
		return "", fmt.Errorf("demo: %w", err)
	}
	ws, err := workspace.Open(ctx, root)
	if err != nil {
		return "", err
	}
	defer ws.Close()
	tasks, err := loadDemoCatalog()
	if err != nil {
		return "", fmt.Errorf("demo: %w", err)
	}
	scorer, _, err := loadScorer(ws, "") // phase, MCP score, difficulty from the profile
	if err != nil {
		return "", fmt.Errorf("demo: %w", err)
	}
	rescore(scorer, tasks)
	if err := ws.Store.UpsertTasks(ctx, tasks); err != nil {
		return "", fmt.Errorf("demo: %w", err)
	}
	fmt.Fprintf(app.Out, "Demo workspace %s: %d catalogue tasks\n", root, len(tasks))
	if err := demoBuild(ctx, app, ws); err != nil {
		return "", fmt.Errorf("demo: %w", err)
	}
	return root, nil
}
