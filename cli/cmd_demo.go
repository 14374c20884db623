package cli

import (
	"context"
	"curate/app"
	"curate/internal/demodata"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"curate/workspace"
)

func newDemoCmd(env *Env) *cobra.Command {
	var dir string
	var noOpen bool
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Create a demo workspace (a few hundred tasks, two built from a fixture repo) and open the workbench",
		Example: `  curate demo                 # in a temp dir, opens the workbench
  curate demo --dir ./demo --no-open && cd demo && curate list`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			root, err := makeDemo(cmd.Context(), env, dir)
			if err != nil {
				return err
			}
			if noOpen || !isTerminal(os.Stdout) {
				fmt.Fprintf(env.Out, "Next: cd %s && curate list   (or: curate --workspace %s)\n", root, root)
				return nil
			}
			env.WorkspaceFlag = root
			return openWorkbench(cmd.Context(), env)
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "create the demo here instead of a temp dir")
	cmd.Flags().BoolVar(&noOpen, "no-open", false, "create the workspace and print its path without opening the workbench")
	return cmd
}

// makeDemo creates and fills a demo workspace and returns its root.
func makeDemo(ctx context.Context, env *Env, dir string) (string, error) {
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
	tasks, err := demodata.Catalog()
	if err != nil {
		return "", fmt.Errorf("demo: %w", err)
	}
	scorer, _, err := app.LoadScorer(ws, "") // phase, MCP score, difficulty from the profile
	if err != nil {
		return "", fmt.Errorf("demo: %w", err)
	}
	app.Rescore(scorer, tasks)
	if err := ws.Store.UpsertTasks(ctx, tasks); err != nil {
		return "", fmt.Errorf("demo: %w", err)
	}
	fmt.Fprintf(env.Out, "Demo workspace %s: %d catalogue tasks\n", root, len(tasks))
	if err := demoBuild(ctx, env, ws); err != nil {
		return "", fmt.Errorf("demo: %w", err)
	}
	return root, nil
}
