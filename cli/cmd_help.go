package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"curate/docs"
)

// newHelpCmd replaces cobra's help command: `curate help TOPIC` prints a
// topic page (the same text as docs/), `curate help COMMAND` a command's
// help, and `curate help` the commands and the topics.
func newHelpCmd(env *Env, root *cobra.Command) *cobra.Command {
	// `curate --help` lists the topics too.
	root.Long = root.Short + ".\n\n" + docs.Summary()
	return &cobra.Command{
		Use:   "help [TOPIC | COMMAND...]",
		Short: "Help on a topic (" + strings.Join(docs.TopicNames(), ", ") + ") or a command",
		Long: "Help on a topic or a command.\n\n" + docs.Summary() +
			"\nWith a command's name, its flags and examples (the same as `curate COMMAND --help`).",
		Example: "  curate help filters\n  curate help exit-codes\n  curate help label",
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			out := docs.TopicNames()
			for _, c := range root.Commands() {
				if c.IsAvailableCommand() {
					out = append(out, c.Name())
				}
			}
			return out, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return root.Help()
			}
			if len(args) == 1 {
				if text, ok := docs.TopicText(args[0]); ok {
					fmt.Fprint(env.Out, text)
					return nil
				}
			}
			target, rest, err := root.Find(args)
			if err != nil || target == root || len(rest) > 0 {
				return fmt.Errorf("no help topic or command %q (topics: %s; commands: curate help)",
					strings.Join(args, " "), strings.Join(docs.TopicNames(), ", "))
			}
			return target.Help()
		},
	}
}

// CommandTree is the whole command tree on a silent Env, for the generated
// man pages (internal/cmd/gendocs); nothing in it runs.
func CommandTree() *cobra.Command {
	return newRoot(&Env{Out: io.Discard, Err: io.Discard, In: strings.NewReader("")})
}
