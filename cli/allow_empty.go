package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"curate/pipeline/envgen"
)

// Commands that change tasks refuse a filter that matches nothing: a
// misspelt repo or a value no task has would otherwise "succeed" having
// done nothing, and a script would go on as if it had. --allow-empty is
// for the scripts that mean it.

// addAllowEmpty adds --allow-empty to a command that takes --filter.
func addAllowEmpty(cmd *cobra.Command, allow *bool) {
	cmd.Flags().BoolVar(allow, "allow-empty", false, "accept a --filter that matches no task (exit 0, nothing done)")
}

// emptyMatch is the error (or, with allow, the note) for a filter that
// matched no task; what says what the command would have done.
func emptyMatch(env *Env, filter, what string, allow bool) error {
	if allow {
		fmt.Fprintf(env.Out, "No task matches %q: %s.\n", filter, what)
		return nil
	}
	return fmt.Errorf("no task matches %q: %s (check it with curate list --filter %s; --allow-empty accepts an empty match)", filter, what, envgen.ShellQuote(filter))
}
