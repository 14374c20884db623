package cli

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"curate/app"
	"curate/pipeline/profiles"
	"curate/pipeline/sanitize"
	"curate/pipeline/score"
	"curate/workspace"
)

func newProfileCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "profile",
		Short: "Show the rule profile (SDLC phase map, score rules, difficulty rules, selection rules)",
	}
	var name, file string
	var asJSON bool
	show := &cobra.Command{
		Use:   "show",
		Short: "Print the effective profile: the embedded TOML, then any override file",
		Example: `  curate profile show
  curate profile show --name ccb > my-rules.toml   # edit, then [profile] file = "my-rules.toml"
  curate profile show --json | jq .Score.Difficulty`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			var ws *workspace.Workspace
			if name == "" || file == "" {
				w, err := env.Workspace(cmd.Context())
				switch {
				case err == nil:
					ws = w
				case !errors.Is(err, workspace.ErrNoWorkspace):
					return err
				}
			}
			if ws != nil {
				wsName, wsFile := app.ProfileSource(ws)
				if name == "" {
					name = wsName
				}
				if file == "" {
					file = wsFile
				}
			}
			if name == "" {
				name = "ccb"
			}
			p, err := profiles.Load(name, file)
			if err != nil {
				return err
			}
			if _, err := score.Compile(p.Score); err != nil {
				return fmt.Errorf("profile %s: %w", name, err)
			}
			if asJSON {
				return writeJSON(env.Out, p)
			}
			text, err := profiles.EmbeddedText(name)
			if err != nil {
				return err
			}
			fmt.Fprint(env.Out, text)
			if file != "" {
				data, err := os.ReadFile(file)
				if err != nil {
					return err
				}
				fmt.Fprintf(env.Out, "# ---- override: %s ----\n%s", sanitize.Line(file), sanitize.Text(string(data)))
			}
			return nil
		},
	}
	show.Flags().StringVar(&name, "name", "", "embedded profile name (default: the workspace's, else ccb)")
	show.Flags().StringVar(&file, "profile", "", "override file to apply on top")
	show.Flags().BoolVar(&asJSON, "json", false, "print the decoded profile as JSON")
	cmd.AddCommand(show)
	return cmd
}
