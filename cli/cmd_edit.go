package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"curate/app"
	"curate/workspace"
)

func newEditCmd(env *Env) *cobra.Command {
	var drop []string
	var list, reason string
	cmd := &cobra.Command{
		Use:   "edit ID instruction|requirements|tests|hints [none|tests|failures]",
		Short: "Edit a task's problem statement in $EDITOR, or drop tests from its FAIL_TO_PASS / PASS_TO_PASS (undo and redo as labels)",
		Long: `edit ID instruction opens the task's statement in $VISUAL or $EDITOR (as git commit
does). What you save becomes the curator's statement: instruction.md is written
again (title, your text, the Interface section, the footer), the digest
recomputed, instruction_source becomes "curator", and the generated text is
kept to diff against (curate show --json ID). Save an empty text to go back to
the generated statement. A changed digest sends the task back to built.

edit ID requirements adds the values the task's hidden tests check that its
statement leaves out (the strict_tests flag; curate show lists them) to the
statement's Requirements section, as the curator's statement.

edit ID tests --drop NAME --reason WHY takes tests out of FAIL_TO_PASS (or
PASS_TO_PASS with --list), rebuilds the task so test.sh no longer counts them,
and leaves it built for curate validate to judge again.

edit ID hints tests lists the FAIL_TO_PASS tests in this task's instruction.md;
hints failures adds the first message each printed in the task's NOP run
(before a NOP run, the names alone); hints none: nothing; no value: the
workspace's [instructions] hints. The statement changes, so a valid task
waits for curate validate again.

Statement and test edits are events: curate history shows them, curate undo /
redo revert them.`,
		Example: `  EDITOR=nano curate edit acme__calc-1 instruction
  curate edit acme__calc-1 tests --drop tests/test_ops.py::test_divide_whole --reason "environment-dependent"`,
		Args: cobra.RangeArgs(2, 3),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			ws, err := env.Workspace(ctx)
			if err != nil {
				return err
			}
			id, what := args[0], args[1]
			if len(args) == 3 && what != "hints" {
				return fmt.Errorf("edit %s %s takes no value (%q)", id, what, args[2])
			}
			switch what {
			case "hints":
				mode := ""
				if len(args) == 3 {
					mode = args[2]
				}
				if err := app.SetHints(ctx, ws, id, mode); err != nil {
					return err
				}
				fmt.Fprintf(env.Out, "hints of %s: %s\n", id, map[bool]string{true: "the workspace's", false: mode}[mode == ""])
				return nil
			case "instruction":
				ed, err := app.StartInstructionEdit(ctx, ws, id)
				if err != nil {
					return err
				}
				if err := runEditor(env, ed.Command(), ed.Discard); err != nil {
					return fmt.Errorf("%w (the statement is unchanged)", err)
				}
				evs, err := ed.Apply(ctx, workspace.Actor())
				if err != nil {
					return err
				}
				if len(evs) == 0 {
					fmt.Fprintf(env.Out, "no change to the statement of %s\n", id)
					return nil
				}
				fmt.Fprintf(env.Out, "saved the statement of %s (instruction_source curator); curate undo reverts it\n", id)
				return nil
			case "requirements":
				if _, err := app.AddMissingRequirements(ctx, ws, workspace.Actor(), id); err != nil {
					return err
				}
				fmt.Fprintf(env.Out, "added the values %s's tests check to its statement's Requirements (instruction_source curator); curate undo reverts it; next: curate validate %s\n", id, id)
				return nil
			case "tests":
				if len(drop) == 0 {
					return fmt.Errorf("edit %s tests: say which with --drop NAME (repeatable) and --reason", id)
				}
				list = strings.ToUpper(list)
				if list != "FAIL_TO_PASS" && list != "PASS_TO_PASS" {
					return fmt.Errorf("--list %q: want FAIL_TO_PASS or PASS_TO_PASS", list)
				}
				if _, err := app.DropTests(ctx, ws, workspace.Actor(), id, list, drop, reason); err != nil {
					return err
				}
				fmt.Fprintf(env.Out, "dropped %d test(s) from %s's %s and rebuilt it; next: curate validate %s\n", len(drop), id, list, id)
				return nil
			}
			return fmt.Errorf("edit %s %q: want instruction, requirements, tests or hints", id, what)
		},
	}
	cmd.Flags().StringArrayVar(&drop, "drop", nil, "tests: a test to drop (repeatable)")
	cmd.Flags().StringVar(&list, "list", "FAIL_TO_PASS", "tests: the list to drop from, FAIL_TO_PASS or PASS_TO_PASS")
	cmd.Flags().StringVar(&reason, "reason", "", "tests: why (environment-dependent, over-specified, ...)")
	return cmd
}

func newInstructionsCmd(env *Env) *cobra.Command {
	var filter string
	var regenerate, force, asJSON bool
	cmd := &cobra.Command{
		Use:   "instructions --regenerate [--filter EXPR] [--force]",
		Short: "Write the tasks' instruction.md again from their sources (a curator's statement is kept unless --force)",
		Example: `  curate instructions --regenerate --filter 'flag=underspecified'
  curate instructions --regenerate --filter 'repo=acme/calc' --force --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if !regenerate {
				return fmt.Errorf("instructions: say --regenerate (nothing else is done here)")
			}
			ctx := cmd.Context()
			ws, err := env.Workspace(ctx)
			if err != nil {
				return err
			}
			res, err := app.RegenerateInstructions(ctx, ws, workspace.Actor(), filter, force)
			if err != nil {
				return err
			}
			if asJSON {
				if res == nil {
					res = []app.Regenerated{}
				}
				return writeJSON(env.Out, res)
			}
			counts := map[string]int{}
			for _, r := range res {
				counts[r.Result]++
				flags := strings.Join(r.Flags, ",")
				if r.Error != "" {
					flags = r.Error
				}
				fmt.Fprintf(env.Out, "%-8s %-32s %-12s %s\n", r.Result, r.ID, r.Source, flags)
			}
			fmt.Fprintf(env.Out, "%d written, %d kept (curator's; --force replaces them), %d not built, %d imported (left as their source wrote them)\n",
				counts["written"], counts["kept"], counts["unbuilt"], counts["imported"])
			return nil
		},
	}
	cmd.Flags().StringVar(&filter, "filter", "", "which tasks (the list query language)")
	cmd.Flags().BoolVar(&regenerate, "regenerate", false, "write instruction.md again")
	cmd.Flags().BoolVar(&force, "force", false, "also replace curators' statements (an event: curate undo restores them)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one object per task as a JSON array")
	return cmd
}
