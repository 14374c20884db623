package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"curate/workspace"
)

func newInitCmd(env *Env) *cobra.Command {
	return &cobra.Command{
		Use:     "init [DIR]",
		Short:   "Create a workspace (curate.toml, tasks/, .curate/) in DIR (default: here)",
		Example: "  curate init ~/bench/my-benchmark",
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			root, err := workspace.Init(dir)
			if err != nil {
				return err
			}
			fmt.Fprintf(env.Out, "Created workspace %s\nNext: curate import harbor PATH, or curate mine git PATH\n", root)
			return nil
		},
	}
}
