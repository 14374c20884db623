package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"curate/app"
)

func newScoreCmd(env *Env) *cobra.Command {
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
  curate score sgt-001 big-code-kub-001
  curate score --profile my-rules.toml --json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			ws, err := env.Workspace(ctx)
			if err != nil {
				return err
			}
			scorer, name, err := app.LoadScorer(ws, profileFile)
			if err != nil {
				return err
			}
			scored, changed, err := app.RescoreStored(ctx, ws, scorer, args)
			if err != nil {
				return err
			}
			res := map[string]any{"profile": name, "scored": scored, "changed": changed}
			if asJSON {
				return writeJSON(env.Out, res)
			}
			fmt.Fprintf(env.Out, "scored %d tasks with profile %s: %d changed\n", scored, name, changed)
			return nil
		},
	}
	cmd.Flags().StringVar(&profileFile, "profile", "", "profile TOML file overriding the workspace's profile")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the counts as JSON")
	return cmd
}
