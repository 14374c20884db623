package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"curate/app"
	"curate/workspace"
)

func newTUICmd(env *Env) *cobra.Command {
	var f workbenchFlags
	cmd := &cobra.Command{
		Use:   "tui",
		Short: "Open the workbench (the same as running curate with no command)",
		Example: `  curate tui --workspace ~/bench/my-benchmark
  curate tui --theme high-contrast --no-mouse
  NO_COLOR=1 curate tui`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runWorkbench(cmd.Context(), env, f)
		},
	}
	cmd.Flags().StringVar(&f.theme, "theme", "", "colour theme: dark, light or high-contrast (default: curate.toml [ui] theme, else from the terminal background)")
	cmd.Flags().BoolVar(&f.noMouse, "no-mouse", false, "leave the mouse to the terminal (text selection); M toggles it inside")
	cmd.Flags().StringVar(&f.engine, "engine", "docker", "where the workbench's validations go: docker, or kubernetes (curate.toml [kubernetes])")
	return cmd
}

// runDefault is `curate` with no command: the workbench when a workspace is
// around, else an offer to open the demo.
func runDefault(ctx context.Context, env *Env) error {
	_, err := workspace.Find(env.WorkspaceFlag)
	if errors.Is(err, workspace.ErrNoWorkspace) {
		if !isTerminal(os.Stdin) || !isTerminal(os.Stdout) {
			return err
		}
		fmt.Fprint(env.Out, "No curate workspace here. Open the demo workspace instead? [Y/n] ")
		answer, _ := bufio.NewReader(env.In).ReadString('\n')
		if a := strings.TrimSpace(strings.ToLower(answer)); a != "" && a != "y" && a != "yes" {
			return err
		}
		root, derr := app.MakeDemo(ctx, env.Out, "")
		if derr != nil {
			return derr
		}
		env.WorkspaceFlag = root
	} else if err != nil {
		return err
	}
	return openWorkbench(ctx, env)
}

// isTerminal reports whether f is a terminal (not just any character
// device: /dev/null is one too).
func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }
