// Package cli is curate's command line: one file per noun, the command
// tree written down in newRoot, flags in, app options out, results printed.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"curate/app"
	"curate/pipeline"
	"curate/pipeline/validate"
	"curate/store"
	"curate/workspace"
)

// Env is what every command shares: output streams and the workspace,
// opened on first use.
type Env struct {
	Out, Err      io.Writer
	In            io.Reader
	WorkspaceFlag string
	ws            *workspace.Workspace
	// engines, when set, replace the Docker engines validation opens
	// (tests drive both faces with the same recording engine).
	engines []validate.Runner
}

// Workspace finds and opens the workspace once per process.
func (e *Env) Workspace(ctx context.Context) (*workspace.Workspace, error) {
	if e.ws != nil {
		return e.ws, nil
	}
	root, err := workspace.Find(e.WorkspaceFlag)
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
	if from := ws.Store.UpgradedFrom(); from > 0 {
		fmt.Fprintf(e.Err, "curate: upgraded %s from schema %d to %d: a curate older than this one can no longer open it\n",
			ws.Store.Path(), from, store.SchemaVersion())
	}
	if err := app.RecoverOnOpen(ctx, ws, e.Err); err != nil {
		ws.Close()
		return nil, err
	}
	e.ws = ws
	return ws, nil
}

// Close releases the workspace if one was opened.
func (e *Env) Close() {
	if e.ws != nil {
		e.ws.Close()
		e.ws = nil
	}
}

// newRoot builds the whole command tree around env.
func newRoot(env *Env) *cobra.Command {
	root := &cobra.Command{
		Use:           "curate",
		Short:         "A terminal workbench for building and curating software-engineering benchmarks",
		Version:       version(),
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runDefault(cmd.Context(), env)
		},
	}
	root.PersistentFlags().StringVarP(&env.WorkspaceFlag, "workspace", "w", "", "workspace folder (default: $CURATE_WORKSPACE or the nearest parent with curate.toml)")
	root.SetOut(env.Out)
	root.SetErr(env.Err)
	root.SetIn(env.In)
	root.SetVersionTemplate("curate {{.Version}}\n")
	wrapFlagHelp(root, env)
	root.AddCommand(
		newInitCmd(env),
		newDemoCmd(env),
		newTUICmd(env),
		newMineCmd(env),
		newImportCmd(env),
		newBuildCmd(env),
		newEnvCmd(env),
		newValidateCmd(env),
		newCampaignCmd(env),
		newRunsCmd(env),
		newFunnelCmd(env),
		newRepoCmd(env),
		newRebuildCmd(env),
		newScoreCmd(env),
		newProfileCmd(env),
		newListCmd(env),
		newShowCmd(env),
		newLabelCmd(env),
		newEditCmd(env), newInstructionsCmd(env),
		newHistoryCmd(env),
		newReplayCmd(env, pipeline.EventUndo),
		newReplayCmd(env, pipeline.EventRedo),
		newStatsCmd(env),
		newSelectCmd(env),
		newExportCmd(env),
	)
	root.SetHelpCommand(newHelpCmd(env, root))
	registerCompletions(root, env)
	return root
}

// Run executes the command line and returns the process exit code.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return execute(ctx, &Env{Out: stdout, Err: stderr, In: stdin}, args)
}

// execute runs args on env and returns the exit code.
func execute(ctx context.Context, env *Env, args []string) int {
	stderr := env.Err
	defer env.Close()
	root := newRoot(env)
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
