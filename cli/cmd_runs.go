package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"curate/app"
	"curate/pipeline"
	"curate/pipeline/sanitize"
	"curate/pipeline/validate"
	"curate/workspace"
)

func newRunsCmd(env *Env) *cobra.Command {
	var asJSON bool
	var task, filter string
	var limit int
	cmd := &cobra.Command{
		Use:   "runs",
		Short: "List validation runs, newest first",
		Example: `  curate runs
  curate runs --task acme__calc-1 --json
  curate runs --filter 'repo=acme/calc'
  curate runs show r261121-150405-3fa9 --log
  curate runs cancel r261121-150405-3fa9`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ws, err := env.Workspace(cmd.Context())
			if err != nil {
				return err
			}
			id := ""
			if task != "" {
				if id, err = ws.Store.ResolveID(cmd.Context(), task); err != nil {
					return err
				}
			}
			runs, err := ws.Store.Runs(cmd.Context(), id)
			if err != nil {
				return err
			}
			if filter != "" {
				ids, err := filterIDs(cmd.Context(), ws, filter)
				if err != nil {
					return err
				}
				keep := map[string]bool{}
				for _, id := range ids {
					keep[id] = true
				}
				runs = slices.DeleteFunc(runs, func(r *pipeline.Run) bool { return !keep[r.TaskID] })
			}
			if limit > 0 && len(runs) > limit {
				runs = runs[:limit]
			}
			if asJSON {
				if runs == nil {
					runs = []*pipeline.Run{}
				}
				return writeJSON(env.Out, runs)
			}
			tw := tabwriter.NewWriter(env.Out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "RUN\tTASK\tMODE\tOUTCOME\tREWARD\tSTARTED\tTOOK\tDETAIL")
			for _, r := range runs {
				reward := "-"
				if r.Reward != nil {
					reward = fmt.Sprintf("%g", *r.Reward)
				}
				took := "-"
				if !r.FinishedAt.IsZero() {
					took = r.FinishedAt.Sub(r.StartedAt).Round(100 * time.Millisecond).String()
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, sanitize.Line(r.TaskID), r.Mode, r.Outcome, reward,
					r.StartedAt.Local().Format("01-02 15:04:05"), took, sanitize.Line(clipText(r.Detail, 70)))
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array of runs")
	cmd.Flags().StringVar(&task, "task", "", "only the runs of this task")
	cmd.Flags().StringVarP(&filter, "filter", "f", "", "only the runs of the tasks matching a filter expression")
	cmd.Flags().IntVar(&limit, "limit", 0, "show at most N runs")
	cmd.AddCommand(newRunsShowCmd(env), newRunsCancelCmd(env))
	return cmd
}

func clipText(s string, n int) string {
	if len([]rune(s)) > n {
		return string([]rune(s)[:n-1]) + "…"
	}
	return s
}

func newRunsShowCmd(env *Env) *cobra.Command {
	var withLog, asJSON, matrix bool
	cmd := &cobra.Command{
		Use:   "show RUN",
		Short: "Show one run: outcome, reward, gold lists, and its log with --log",
		Example: `  curate runs show r261121-150405-3fa9 --log
  curate runs show r261121-150405-3fa9 --matrix   # a gold run's tests × buggy/fixed, with log lines`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ws, err := env.Workspace(cmd.Context())
			if err != nil {
				return err
			}
			r, err := ws.Store.Run(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			digest := ""
			if t, err := ws.Store.Task(cmd.Context(), r.TaskID); err == nil {
				digest = t.Digest
			}
			if asJSON {
				return writeJSON(env.Out, toRunJSON(r, digest))
			}
			stale := ""
			if r.Stale(digest) {
				stale = " (stale: the task's files changed since)"
			}
			w := env.Out
			field := func(k, v string) {
				if v != "" {
					fmt.Fprintf(w, "%-12s %s\n", k, sanitize.Line(v))
				}
			}
			field("run", r.ID)
			field("task", r.TaskID)
			field("mode", r.Mode)
			field("outcome", string(r.Outcome))
			if r.Reward != nil {
				field("reward", fmt.Sprintf("%g", *r.Reward))
			}
			field("attempts", fmt.Sprint(r.Attempt))
			field("detail", r.Detail)
			printFailure(w, "%-12s %s\n", r.Failure)
			field("digest", short12(r.Digest)+stale)
			field("engine", r.DockerHost)
			field("retry", r.Retry)
			field("started", r.StartedAt.Local().Format(time.RFC3339))
			if !r.FinishedAt.IsZero() {
				field("finished", r.FinishedAt.Local().Format(time.RFC3339))
			}
			field("log", r.LogPath)
			for _, l := range []struct {
				name  string
				tests []string
			}{{"FAIL_TO_PASS", r.FailToPass}, {"PASS_TO_PASS", r.PassToPass}, {"flaky", r.Flaky}, {"unstable ids (in neither list)", r.Unstable}} {
				if len(l.tests) > 0 {
					fmt.Fprintf(w, "%s (%d):\n", l.name, len(l.tests))
					for _, t := range l.tests {
						fmt.Fprintf(w, "  %s\n", sanitize.Line(t))
					}
				}
			}
			if matrix {
				if err := printGoldMatrix(cmd.Context(), w, ws, r); err != nil {
					return err
				}
			}
			if withLog {
				if r.LogPath == "" {
					return fmt.Errorf("run %s has no log", r.ID)
				}
				f, err := os.Open(r.LogPath)
				if err != nil {
					return fmt.Errorf("log of run %s: %w", r.ID, err)
				}
				defer f.Close()
				fmt.Fprintln(w, "--- log")
				// Lines were sanitized when written; sanitize again in case
				// the file was edited.
				return copySanitized(w, f)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&withLog, "log", false, "print the run's log")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the run as JSON")
	cmd.Flags().BoolVar(&matrix, "matrix", false, "a gold run: print each test's status in the buggy and fixed state, its class and the log line of each result")
	return cmd
}

// printGoldMatrix prints a gold run's matrix (app.GoldMatrix): class,
// both states' statuses and the 1-based log line each was read from.
func printGoldMatrix(ctx context.Context, w io.Writer, ws *workspace.Workspace, r *pipeline.Run) error {
	t, _ := ws.Store.Task(ctx, r.TaskID)
	m, err := app.GoldMatrix(ctx, ws.Root, t, r)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "matrix (%d tests, %d attempts, %s):\n", len(m.Rows), m.Attempts, m.Format)
	fmt.Fprintf(w, "  %-6s %-8s %-6s %-8s %-6s %s\n", "CLASS", "BUGGY", "LINE", "FIXED", "LINE", "TEST")
	line := func(p validate.LogPlace) string {
		if p.Line < 0 {
			return "-"
		}
		return fmt.Sprint(p.Line + 1)
	}
	for _, row := range m.Rows {
		class := row.Class
		if class == "" {
			class = "-"
		}
		st := func(s int) string {
			if x := row.Last(s); x != "" {
				return string(x)
			}
			return "-"
		}
		fmt.Fprintf(w, "  %-6s %-8s %-6s %-8s %-6s %s\n", class, st(validate.StateBuggy), line(row.At[validate.StateBuggy]),
			st(validate.StateFixed), line(row.At[validate.StateFixed]), sanitize.Line(row.Test))
	}
	return nil
}

func short12(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}

func copySanitized(w io.Writer, r io.Reader) error {
	br := bufio.NewReaderSize(r, 64<<10)
	bw := bufio.NewWriterSize(w, 64<<10)
	for {
		line, err := br.ReadString('\n')
		if len(line) > 0 {
			bw.WriteString(sanitize.Line(strings.TrimSuffix(line, "\n")))
			bw.WriteByte('\n')
		}
		if err == io.EOF {
			return bw.Flush()
		}
		if err != nil {
			bw.Flush()
			return err
		}
	}
}

func newRunsCancelCmd(env *Env) *cobra.Command {
	var wait time.Duration
	cmd := &cobra.Command{
		Use:   "cancel RUN",
		Short: "Stop a run in flight, from any terminal",
		Long: `Cancel leaves a marker (.curate/runs/RUN.cancel) that the curate process
owning the run polls; it stops the container, removes it and records the run
as cancelled. If that process is gone, cancel removes the run's containers
(found by their curate.run label) and records the run itself.`,
		Example: "  curate runs cancel r261121-150405-3fa9",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			ws, err := env.Workspace(ctx)
			if err != nil {
				return err
			}
			c, err := app.CancelRun(ctx, ws, args[0], wait)
			switch {
			case err != nil:
				return err
			case c.Pending:
				fmt.Fprintf(env.Out, "asked process %d to cancel run %s; it has not finished yet\n", c.Run.PID, c.Run.ID)
			case c.Orphan:
				fmt.Fprintf(env.Out, "run %s: cancelled (%d container(s) removed)\n", c.Run.ID, c.Removed)
			default:
				fmt.Fprintf(env.Out, "run %s: %s\n", c.Run.ID, c.Run.Outcome)
			}
			return nil
		},
	}
	cmd.Flags().DurationVar(&wait, "wait", 30*time.Second, "how long to wait for the owning process to stop the run")
	return cmd
}
