package cli

import (
	"curate/app"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"curate/pipeline"
	"curate/pipeline/sanitize"
	"curate/store"
	"curate/workspace"
)

func newHistoryCmd(env *Env) *cobra.Command {
	var asJSON bool
	var limit int
	cmd := &cobra.Command{
		Use:     "history [ID]",
		Short:   "Show the label event log, newest first (all tasks or one)",
		Example: "  curate history\n  curate history sgt-008 --json",
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			ws, err := env.Workspace(ctx)
			if err != nil {
				return err
			}
			id := ""
			if len(args) == 1 {
				if id, err = ws.Store.ResolveID(ctx, args[0]); err != nil {
					return err
				}
			}
			events, err := ws.Store.History(ctx, id, limit)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(env.Out, nonNilEvents(events))
			}
			if len(events) == 0 {
				fmt.Fprintln(env.Out, "No label changes yet.")
			}
			for _, e := range events {
				printEvent(env, e)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print events as JSON")
	cmd.Flags().IntVar(&limit, "limit", 0, "show at most N events")
	return cmd
}

func newReplayCmd(env *Env, kind string) *cobra.Command {
	var asJSON bool
	short := "Revert the last label change (appends its inverse; history is kept)"
	example := "  curate undo"
	if kind == pipeline.EventRedo {
		short = "Re-apply the change the last undo reverted"
		example = "  curate redo"
	}
	cmd := &cobra.Command{
		Use:     kind,
		Short:   short,
		Example: example,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			ws, err := env.Workspace(ctx)
			if err != nil {
				return err
			}
			events, err := app.Replay(ctx, ws, workspace.Actor(), kind == pipeline.EventRedo)
			if errors.Is(err, store.ErrNothingToUndo) || errors.Is(err, store.ErrNothingToRedo) {
				if asJSON {
					return writeJSON(env.Out, []pipeline.Event{})
				}
				fmt.Fprintln(env.Out, err.Error()[:1]+err.Error()[1:]+".")
				return nil
			}
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(env.Out, nonNilEvents(events))
			}
			for _, e := range events {
				printEvent(env, e)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the events written as JSON")
	return cmd
}

func printEvent(env *Env, e pipeline.Event) {
	kind := ""
	if e.Kind != pipeline.EventLabel {
		kind = fmt.Sprintf(" [%s of batch %d]", e.Kind, e.Ref) // Ref is a batch; the # column is the event
	}
	note := ""
	// A redo carries the reason the label was given with; an undo's
	// note only says "undo".
	if e.Note != "" && e.Kind != pipeline.EventUndo {
		note = "  — " + sanitize.Line(e.Note)
	}
	fmt.Fprintf(env.Out, "#%-5d %s  %-10s %-28s %s: %q → %q%s%s\n", e.Seq, e.Time.Local().Format("2006-01-02 15:04:05"), sanitize.Line(e.Actor),
		sanitize.Line(e.TaskID), e.Field, sanitize.Line(e.Old), sanitize.Line(e.New), kind, note)
}
