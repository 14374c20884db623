package cli

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"curate/app"
	"curate/pipeline/sanitize"
)

// shownEnvFailures is how many failing tests a failed check prints; the
// rest are in the repository's record (curate repo show --json).
const shownEnvFailures = 10

func newEnvAcceptCmd(env *Env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "accept OWNER/NAME",
		Short: "Take the failing tests of a repository's last env check as known failures, so its PRs that do not touch them mirror onto the snapshot",
		Long: `Accept records that the tests a repository's last environment check
saw failing (the check lists them) fail on its snapshot for reasons
of the environment, not of a PR: tests that need the network, a newer
compiler, a device. build --at auto then mirrors every PR whose test
files do not hold one of them onto the snapshot, and builds the rest at
their merge commit, saying why. A new check (or a new snapshot) asks
again.`,
		Example: `  curate env accept acme/calc`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ws, err := env.Workspace(cmd.Context())
			if err != nil {
				return err
			}
			st, err := app.AcceptEnvFailures(ws, args[0])
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(env.Out, st)
			}
			fmt.Fprintf(env.Out, "%s: %d failing tests of the check at %s accepted as known failures; `curate rebuild --repo %s` mirrors the PRs that do not touch them\n",
				sanitize.Line(st.Repo), st.EnvCheck.Failed, app.ShortRev(st.EnvCheck.Snapshot), sanitize.Line(st.Repo))
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the repository's state as JSON")
	return cmd
}

// printEnvFailures lists a failed check's first failing tests with their
// first error line, and offers to accept them.
func printEnvFailures(w io.Writer, st *app.RepoState) {
	c := st.EnvCheck
	if c == nil || len(c.Failing) == 0 {
		return
	}
	for _, f := range c.Failing[:min(len(c.Failing), shownEnvFailures)] {
		line := "  FAIL " + sanitize.Line(f.Test)
		if f.Error != "" {
			line += ": " + sanitize.Line(f.Error)
		}
		fmt.Fprintln(w, line)
	}
	if c.Failed > shownEnvFailures {
		fmt.Fprintf(w, "  ... %d more: `curate repo show %s --json`\n", c.Failed-shownEnvFailures, sanitize.Line(st.Repo))
	}
	if c.Error == "" && !c.FailuresAccepted {
		fmt.Fprintf(w, "  if these fail for the environment, not the code: `curate env accept %s`\n", sanitize.Line(st.Repo))
	}
}
