package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"curate/app"
	"curate/pipeline"
	"curate/pipeline/sanitize"
	"curate/workspace"
)

func newLabelCmd(env *Env) *cobra.Command {
	var difficulty, phase, category, note, filter string
	var underspecified, falseNegative, fixTime, comment string
	var exclude, include, pin, unpin, asJSON, dryRun, allowEmpty bool
	cmd := &cobra.Command{
		Use:   "label [ID...]",
		Short: "Set the curator's labels on tasks (one undoable step)",
		Long: `Set the curator's labels. Each call is one step in the event log that
` + "`curate undo`" + ` reverts. The curator's difficulty always wins over the calibrated
one and survives re-scoring. Use --difficulty none to clear a label.

The review flags record a human quality review in the shape of SWE-bench
Verified, with $USER as reviewer: --underspecified and --false-negative score
0-3 (2 or more flags the task), --fix-time is one of <15m, 15m-1h, 1h-4h, >4h.`,
		Example: `  curate label sgt-001 --difficulty critical --note "110 files"
  curate label instance_navidrome__navidrome-1b93 --exclude --note "flaky network test"   # a unique id prefix is enough
  curate label --filter 'benchmark=ccb_dibench language=csharp' --pin --dry-run   # what would change; nothing does
  curate label sgt-001 --underspecified 1 --false-negative 0 --fix-time 15m-1h --comment "clear issue, tests fair"`,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if exclude && include || pin && unpin {
				return fmt.Errorf("--exclude/--include and --pin/--unpin are opposites; give one of each pair")
			}
			review := app.Review{}
			for _, r := range []struct {
				flag string
				v    *string
				dst  **string
			}{{"underspecified", &underspecified, &review.Underspecified}, {"false-negative", &falseNegative, &review.FalseNegative},
				{"fix-time", &fixTime, &review.FixTime}, {"comment", &comment, &review.Comment}} {
				if cmd.Flags().Changed(r.flag) {
					if *r.v == "none" {
						*r.v = ""
					}
					*r.dst = r.v
				}
			}
			// Check the review before touching the workspace: a bad value is one message.
			if _, err := app.ReviewChanges(nil, review, ""); err != nil {
				return err
			}
			if len(args) == 0 && filter == "" {
				return fmt.Errorf("name tasks by ID or --filter")
			}
			ws, err := env.Workspace(ctx)
			if err != nil {
				return err
			}
			ids := []string{}
			for _, a := range args {
				id, err := ws.Store.ResolveID(ctx, a)
				if err != nil {
					return err
				}
				ids = append(ids, id)
			}
			matched, err := filterIDs(ctx, ws, filter)
			if err != nil {
				return err
			}
			if filter != "" && len(matched) == 0 && len(args) == 0 {
				return emptyMatch(env, filter, "nothing changed", allowEmpty)
			}
			ids = append(ids, matched...)
			var fields [][2]string
			set := func(flag, field, value string) {
				if cmd.Flags().Changed(flag) {
					if value == "none" {
						value = ""
					}
					fields = append(fields, [2]string{field, value})
				}
			}
			set("difficulty", pipeline.FieldDifficulty, difficulty)
			set("phase", pipeline.FieldPhase, phase)
			set("category", pipeline.FieldCategory, category)
			if exclude || include {
				fields = append(fields, [2]string{pipeline.FieldExcluded, fmt.Sprint(exclude)})
			}
			if pin || unpin {
				fields = append(fields, [2]string{pipeline.FieldPinned, fmt.Sprint(pin)})
			}
			// A note alone is a note label; with other changes it is their reason.
			noteOnly := len(fields) == 0 && review.Empty() && cmd.Flags().Changed("note")
			if noteOnly {
				fields = append(fields, [2]string{pipeline.FieldNote, note})
			}
			if len(fields) == 0 && review.Empty() {
				return fmt.Errorf("nothing to change: give --difficulty, --phase, --category, --note, --exclude/--include, --pin/--unpin or a review (--underspecified, --false-negative, --fix-time, --comment)")
			}
			var changes []pipeline.Change
			for _, id := range ids {
				for _, f := range fields {
					c := pipeline.Change{TaskID: id, Field: f[0], New: f[1]}
					if !noteOnly {
						c.Note = note
					}
					changes = append(changes, c)
				}
			}
			reviewChanges, err := app.ReviewChanges(ids, review, workspace.Actor())
			if err != nil {
				return err
			}
			changes = append(changes, reviewChanges...)
			write := ws.Store.Label
			if dryRun {
				write = ws.Store.PreviewLabel
			}
			events, err := write(ctx, workspace.Actor(), changes)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(env.Out, nonNilEvents(events))
			}
			if len(events) == 0 {
				fmt.Fprintf(env.Out, "No change: the %d task(s) already had these labels.\n", len(ids))
				return nil
			}
			for _, e := range events {
				if dryRun {
					fmt.Fprintf(env.Out, "would set  %-28s %s: %q → %q\n", sanitize.Line(e.TaskID), e.Field, sanitize.Line(e.Old), sanitize.Line(e.New))
					continue
				}
				printEvent(env, e)
			}
			if dryRun {
				fmt.Fprintf(env.Out, "dry run: %d change(s) on %d task(s) would be made; nothing changed.\n", len(events), len(ids))
				return nil
			}
			fmt.Fprintf(env.Out, "%d change(s) on %d task(s); `curate undo` reverts them.\n", len(events), len(ids))
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&difficulty, "difficulty", "", "difficulty label: "+pipeline.JoinDifficulties()+", or none")
	f.StringVar(&phase, "phase", "", "SDLC phase (full name or short: requirements, architecture, feature, bugfix, refactoring, testing, docs, maintenance), or none")
	f.StringVar(&category, "category", "", "category label, or none")
	f.StringVar(&note, "note", "", "a note (alone: the task's note; with other flags: the reason recorded with them)")
	f.BoolVar(&exclude, "exclude", false, "exclude from selection (give the reason with --note)")
	f.BoolVar(&include, "include", false, "lift an exclusion")
	f.BoolVar(&pin, "pin", false, "always select")
	f.BoolVar(&unpin, "unpin", false, "lift a pin")
	f.StringVar(&underspecified, "underspecified", "", "review: how unclear the instruction is, 0-3, or none")
	f.StringVar(&falseNegative, "false-negative", "", "review: how likely the tests reject a correct solution, 0-3, or none")
	f.StringVar(&fixTime, "fix-time", "", "review: time an engineer needs: "+strings.Join(pipeline.FixTimes, ", ")+", or none")
	f.StringVar(&comment, "comment", "", "review: a free comment")
	f.StringVarP(&filter, "filter", "f", "", "label every task matching this filter expression (curate help filters)")
	addAllowEmpty(cmd, &allowEmpty)
	f.BoolVar(&asJSON, "json", false, "print the events written as JSON")
	f.BoolVar(&dryRun, "dry-run", false, "print the changes that would be made; change nothing")
	return cmd
}

func nonNilEvents(e []pipeline.Event) []pipeline.Event {
	if e == nil {
		return []pipeline.Event{}
	}
	return e
}
