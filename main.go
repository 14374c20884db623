// Command curate is a terminal workbench for building and curating
// software-engineering benchmarks. This file only wires the command line;
// each subcommand lives in its own cmd_*.go file and registers itself.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"curate/workspace"
)

// App is what every command shares: output streams and the workspace,
// opened on first use.
type App struct {
	Out, Err      io.Writer
	In            io.Reader
	WorkspaceFlag string
	ws            *workspace.Workspace
}

// Workspace finds and opens the workspace once per process.
func (a *App) Workspace(ctx context.Context) (*workspace.Workspace, error) {
	if a.ws != nil {
		return a.ws, nil
	}
	root, err := workspace.Find(a.WorkspaceFlag)
	if err != nil {
		return nil, err
	}
	ws, err := workspace.Open(ctx, root)
	if err != nil {
		return nil, err
	}
	if err := checkConfig(ws); err != nil {
		ws.Close()
		return nil, err
	}
	if err := recoverOnOpen(ctx, ws, a.Err); err != nil {
		ws.Close()
		return nil, err
	}
	a.ws = ws
	return ws, nil
}

// Close releases the workspace if one was opened.
func (a *App) Close() {
	if a.ws != nil {
		a.ws.Close()
		a.ws = nil
	}
}

// registry holds the constructors of every subcommand (see register).
var registry []func(*App) *cobra.Command

// register adds a subcommand; each cmd_*.go calls it from init.
func register(f func(*App) *cobra.Command) { registry = append(registry, f) }

// newRoot builds the command tree around app.
func newRoot(app *App) *cobra.Command {
	root := &cobra.Command{
		Use:           "curate",
		Short:         "A terminal workbench for building and curating software-engineering benchmarks",
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runDefault(cmd.Context(), app)
		},
	}
	root.PersistentFlags().StringVarP(&app.WorkspaceFlag, "workspace", "w", "", "workspace folder (default: $CURATE_WORKSPACE or the nearest parent with curate.toml)")
	root.SetOut(app.Out)
	root.SetErr(app.Err)
	root.SetIn(app.In)
	for _, f := range registry {
		root.AddCommand(f(app))
	}
	return root
}

// run executes the command line and returns the process exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	app := &App{Out: stdout, Err: stderr, In: stdin}
	defer app.Close()
	root := newRoot(app)
	root.SetArgs(args)
	if err := root.ExecuteContext(ctx); err != nil {
		var ex exitError
		if errors.As(err, &ex) {
			if ex.msg != "" {
				fmt.Fprintln(stderr, "curate:", ex.msg)
			}
			return ex.code
		}
		fmt.Fprintln(stderr, "curate:", err)
		return 1
	}
	return 0
}

// exitError carries a specific exit code (e.g. a validation that found
// invalid tasks) without printing a Go error.
type exitError struct {
	code int
	msg  string
}

func (e exitError) Error() string { return e.msg }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
