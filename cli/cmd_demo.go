package cli

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"curate/app"
)

func newDemoCmd(env *Env) *cobra.Command {
	var dir string
	var noOpen bool
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Create a demo workspace (a few hundred tasks, four built from two fixture repositories) and open the workbench",
		Example: `  curate demo                 # in a temp dir, opens the workbench
  curate demo --dir ./demo --no-open && cd demo && curate list`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			root, err := app.MakeDemo(cmd.Context(), env.Out, dir)
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
