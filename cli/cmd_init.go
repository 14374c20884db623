package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"curate/app"
	"curate/pipeline/profiles"
	"curate/workspace"
)

func newInitCmd(env *Env) *cobra.Command {
	var reindex bool
	var profile string
	cmd := &cobra.Command{
		Use:   "init [DIR]",
		Short: "Create a workspace (curate.toml, tasks/, .curate/) in DIR (default: here)",
		Long: `Create a workspace (curate.toml, tasks/, .curate/) in DIR (default: here).

--profile picks the rule profile written into curate.toml's [profile]: swe
(the default: score by the size of the fix, selection balanced by language,
SDLC phase and difficulty, Harbor datasets named after the workspace) or ccb
(CodeContextBench's MCP benefit score and per-benchmark strategies). Without
the flag an interactive terminal is asked; scripts get swe.

With --reindex, DIR is an existing workspace whose index (.curate/curate.db)
curate cannot read (empty, not SQLite, another program's file): the file is
moved aside (curate.db.unreadable-TIME) and a new index is built from the
task dirs in tasks/, as ` + "`curate import harbor tasks --in-place`" + ` would. Labels,
runs and selections lived only in the old index.`,
		Example: "  curate init ~/bench/my-benchmark\n  curate init --profile ccb ~/bench/ccb\n  curate init --reindex ~/bench/my-benchmark",
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			if reindex {
				return runReindex(cmd, env, dir)
			}
			if !cmd.Flags().Changed("profile") {
				profile = askProfile(env)
			}
			root, err := workspace.InitProfile(dir, profile)
			if err != nil {
				return err
			}
			fmt.Fprintf(env.Out, "Created workspace %s (profile %s)\nNext: curate import harbor PATH, or curate mine git PATH\n", root, profile)
			return nil
		},
	}
	cmd.Flags().StringVar(&profile, "profile", profiles.Default, "rule profile: "+strings.Join(profiles.Names(), ", "))
	cmd.Flags().BoolVar(&reindex, "reindex", false, "rebuild an unreadable index of the workspace DIR from its tasks/")
	return cmd
}

// runReindex sets the unreadable index aside and imports tasks/ in place.
func runReindex(cmd *cobra.Command, env *Env, dir string) error {
	ctx := cmd.Context()
	aside, err := workspace.SetAsideIndex(ctx, dir)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Out, "Moved the unreadable index to %s\n", aside)
	ws, err := workspace.Open(ctx, filepath.Dir(filepath.Dir(aside)))
	if err != nil {
		return err
	}
	defer ws.Close()
	sum, err := app.ImportHarbor(ctx, ws, []string{ws.TasksPath()}, app.ImportOptions{InPlace: true})
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Out, "Rebuilt the index from %s: %d tasks, %d failed\n", ws.TasksPath(), len(sum.Imported)+len(sum.Updated)+len(sum.Unchanged), len(sum.Failed))
	for _, f := range sum.Failed {
		fmt.Fprintf(env.Out, "FAILED %s / %s\n", f.Source, f.Reason)
	}
	return nil
}

// askProfile asks an interactive terminal which profile to use; anything
// else (a script, CI, a pipe) gets the default without waiting.
func askProfile(env *Env) string {
	f, ok := env.In.(*os.File)
	if !ok || !isTerminal(f) {
		return profiles.Default
	}
	fmt.Fprintf(env.Out, "Profile: swe (a SWE-style benchmark of your own) or ccb (CodeContextBench's rules)? [%s] ", profiles.Default)
	var answer string
	if _, err := fmt.Fscanln(f, &answer); err != nil || strings.TrimSpace(answer) == "" {
		return profiles.Default
	}
	return strings.TrimSpace(answer)
}
