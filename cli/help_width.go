package cli

import (
	"os"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"
)

// wrapFlagHelp makes `--help` wrap each flag's description under itself
// at the terminal's width (80 columns when not a terminal) instead of
// running past the edge: the flag names stay in one column.
func wrapFlagHelp(root *cobra.Command, env *Env) {
	width := 80
	if f, ok := env.Out.(*os.File); ok && isTerminal(f) {
		if w, _, err := term.GetSize(int(f.Fd())); err == nil {
			width = min(max(w, 60), 120)
		}
	}
	cobra.AddTemplateFunc("wrappedFlags", func(fs *pflag.FlagSet) string {
		return strings.TrimRight(fs.FlagUsagesWrapped(width), " \n")
	})
	// A command's one-line summary wraps under itself, past the name column.
	cobra.AddTemplateFunc("wrappedShort", func(short string, padding int) string {
		indent := 2 + padding + 1
		return strings.ReplaceAll(ansi.Wordwrap(short, max(width-indent, 20), ""), "\n", "\n"+strings.Repeat(" ", indent))
	})
	root.SetUsageTemplate(strings.NewReplacer(
		"{{.LocalFlags.FlagUsages | trimTrailingWhitespaces}}", "{{wrappedFlags .LocalFlags}}",
		"{{.InheritedFlags.FlagUsages | trimTrailingWhitespaces}}", "{{wrappedFlags .InheritedFlags}}",
		"{{rpad .Name .NamePadding }} {{.Short}}", "{{rpad .Name .NamePadding }} {{wrappedShort .Short .NamePadding}}",
	).Replace(root.UsageTemplate()))
}
