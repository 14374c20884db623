package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"curate/pipeline"
	"curate/pipeline/profiles"
	"curate/pipeline/sanitize"
	"curate/pipeline/selection"
	"curate/pipeline/stats"
	"curate/workspace"
)

func init() { register(newSelectCmd) }

// selectOutput is `select --json`: the solver's verdict and the snapshot.
type selectOutput struct {
	Name string `json:"name"`
	*selection.Result
	Selected   int                     `json:"selected"`
	Benchmarks []stats.BenchmarkRow    `json:"benchmarks"`
	Tasks      []pipeline.SelectedTask `json:"tasks"`
}

func newSelectCmd(app *App) *cobra.Command {
	var budget int
	var name string
	var quotas []string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "select",
		Short: "Choose a set of tasks under the profile's strategies, the budget and quotas, and save it as a named snapshot",
		Example: `  curate select                       # the profile's targets (ccb: seed 000's 116)
  curate select --budget 80 --name small
  curate select --quota language=rust:min=12 --quota 'sdlc_phase=Documentation:max=3'
  curate select --json | jq .violations
  curate select diff small default
  curate select list`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			ws, err := app.Workspace(ctx)
			if err != nil {
				return err
			}
			cfg, err := selectionConfig(ws)
			if err != nil {
				return err
			}
			if cmd.Flags().Changed("budget") {
				if budget < 1 {
					return fmt.Errorf("--budget %d: must be at least 1", budget)
				}
				cfg.Budget = &budget
			}
			for _, qs := range quotas {
				q, err := selection.ParseQuota(qs)
				if err != nil {
					return fmt.Errorf("--quota: %w", err)
				}
				cfg.Quotas = append(cfg.Quotas, q)
			}
			tasks, err := ws.Store.Tasks(ctx)
			if err != nil {
				return err
			}
			solver, err := selection.NewSolver(tasks, cfg)
			if err != nil {
				return err
			}
			res, err := solver.Solve()
			if err != nil {
				return err
			}
			if name == "" {
				name = "sel-" + time.Now().UTC().Format("20060102-150405")
			}
			sel, st, err := snapshot(name, solver.Config(), tasks, res)
			if err != nil {
				return err
			}
			if err := ws.Store.SaveSelection(ctx, sel); err != nil {
				return err
			}
			if asJSON {
				return writeJSON(app.Out, selectOutput{Name: name, Result: res, Selected: len(res.Picks), Benchmarks: st.Benchmarks, Tasks: sel.Tasks})
			}
			printSolve(app, name, res, st)
			return nil
		},
	}
	cmd.Flags().IntVar(&budget, "budget", 0, "total number of tasks (default: the profile's budget or the sum of its takes)")
	cmd.Flags().StringArrayVar(&quotas, "quota", nil, "extra quota DIMENSION=VALUE:min=N,max=N,target=N,min_share=F,max_share=F (repeatable)")
	cmd.Flags().StringVar(&name, "name", "", "snapshot name (default: sel-<UTC time>)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	cmd.AddCommand(newSelectDiffCmd(app), newSelectListCmd(app))
	return cmd
}

// selectionConfig is the profile's [selection] with curate.toml's
// [selection] budget and quotas applied on top.
func selectionConfig(ws *workspace.Workspace) (selection.Config, error) {
	p, err := loadProfile(ws)
	if err != nil {
		return selection.Config{}, err
	}
	cfg := p.Selection // curate.toml's quotas were checked when it was read
	if b := ws.Config.Selection.Budget; b != nil {
		cfg.Budget = b
	}
	cfg.Quotas = selection.MergeQuotas(cfg.Quotas, ws.Config.Selection.Quotas)
	if err := cfg.Validate(); err != nil {
		return cfg, fmt.Errorf("%s or profile %s: %w", ws.ConfigPath(), p.Name, err)
	}
	return cfg, nil
}

func loadProfile(ws *workspace.Workspace) (*profiles.Profile, error) {
	file := ws.Config.Profile.File
	if file != "" && !filepath.IsAbs(file) {
		file = filepath.Join(ws.Root, file)
	}
	return profiles.Load(ws.Config.Profile.Name, file)
}

// snapshot turns a solve into a named selection with its config and stats.
func snapshot(name string, cfg selection.Config, tasks []*pipeline.Task, res *selection.Result) (*pipeline.Selection, *stats.Stats, error) {
	selected := make([]*pipeline.Task, len(res.Picks))
	sel := &pipeline.Selection{Name: name, CreatedAt: time.Now().UTC(), Source: "solver"}
	for i, p := range res.Picks {
		selected[i] = p.Task
		sel.Tasks = append(sel.Tasks, pipeline.SelectedTask{TaskID: p.Task.ID, Rationale: p.Rationale, Rank: i + 1})
	}
	st := stats.Compute(tasks, selected, statsOptions(cfg))
	var err error
	if sel.Config, err = toMap(cfg); err != nil {
		return nil, nil, err
	}
	if sel.Stats, err = toMap(st); err != nil {
		return nil, nil, err
	}
	solve, err := toMap(res)
	if err != nil {
		return nil, nil, err
	}
	delete(solve, "entered")
	delete(solve, "left")
	sel.Stats["solve"] = solve
	return sel, st, nil
}

func statsOptions(cfg selection.Config) stats.Options {
	return stats.Options{Order: cfg.BenchmarkNames(), Strategies: cfg.Descriptions()}
}

func toMap(v any) (map[string]any, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	return m, json.Unmarshal(data, &m)
}

func printSolve(app *App, name string, res *selection.Result, st *stats.Stats) {
	fmt.Fprintf(app.Out, "Selection %s: %d of %d tasks (budget %d)\n", sanitize.Line(name), len(res.Picks), st.TotalAvailable, res.Budget)
	if res.Feasible {
		fmt.Fprintln(app.Out, "Feasible: every quota met")
	} else {
		fmt.Fprintln(app.Out, "Infeasible:")
		for _, v := range res.Violations {
			fmt.Fprintln(app.Out, "  "+sanitize.Line(v.Message))
		}
	}
	for _, q := range res.Quotas {
		mark := "ok "
		if !q.Met {
			mark = "NOT"
		}
		bound := fmt.Sprintf("min %d", q.Min)
		if q.Max >= 0 {
			bound += fmt.Sprintf(", max %d", q.Max)
		}
		fmt.Fprintf(app.Out, "  [%s] %s: have %d (%s; %d eligible)\n", mark, sanitize.Line(q.Label), q.Have, bound, q.Available)
	}
	fmt.Fprintf(app.Out, "Total score %.4f, upper bound %.4f, gap %.4f\n", res.TotalScore, res.UpperBound, res.Gap)
	for _, s := range res.Shortfalls {
		fmt.Fprintf(app.Out, "Shortfall: %s has %d tasks, target %d (short by %d)\n", sanitize.Line(s.Benchmark), s.Available, s.Take, s.Short)
	}
	tw := tabwriter.NewWriter(app.Out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "BENCHMARK\tAVAILABLE\tSELECTED\tSTRATEGY")
	for _, b := range st.Benchmarks {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\n", sanitize.Line(b.Benchmark), b.Available, b.Selected, sanitize.Line(b.Strategy))
	}
	tw.Flush()
}

func newSelectDiffCmd(app *App) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:     "diff A B",
		Short:   "Show which tasks entered and left between two saved selections",
		Example: "  curate select diff default small\n  curate select diff default small --json",
		Args:    cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			ws, err := app.Workspace(cmd.Context())
			if err != nil {
				return err
			}
			a, err := ws.Store.Selection(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			b, err := ws.Store.Selection(cmd.Context(), args[1])
			if err != nil {
				return err
			}
			d := diffSelections(a, b)
			if asJSON {
				return writeJSON(app.Out, d)
			}
			fmt.Fprintf(app.Out, "%s (%d) -> %s (%d): %d entered, %d left, %d kept\n",
				sanitize.Line(a.Name), len(a.Tasks), sanitize.Line(b.Name), len(b.Tasks), len(d.Entered), len(d.Left), d.Kept)
			for _, e := range d.Entered {
				fmt.Fprintf(app.Out, "+ %s  %s\n", sanitize.Line(e.TaskID), sanitize.Line(e.Rationale))
			}
			for _, e := range d.Left {
				fmt.Fprintf(app.Out, "- %s  %s\n", sanitize.Line(e.TaskID), sanitize.Line(e.Rationale))
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print {entered, left, kept} as JSON")
	return cmd
}

type selectionDiff struct {
	From    string                  `json:"from"`
	To      string                  `json:"to"`
	Entered []pipeline.SelectedTask `json:"entered"`
	Left    []pipeline.SelectedTask `json:"left"`
	Kept    int                     `json:"kept"`
}

func diffSelections(a, b *pipeline.Selection) selectionDiff {
	d := selectionDiff{From: a.Name, To: b.Name, Entered: []pipeline.SelectedTask{}, Left: []pipeline.SelectedTask{}}
	inA := map[string]bool{}
	for _, t := range a.Tasks {
		inA[t.TaskID] = true
	}
	inB := map[string]bool{}
	for _, t := range b.Tasks {
		inB[t.TaskID] = true
		if inA[t.TaskID] {
			d.Kept++
		} else {
			d.Entered = append(d.Entered, t)
		}
	}
	for _, t := range a.Tasks {
		if !inB[t.TaskID] {
			d.Left = append(d.Left, t)
		}
	}
	sort.Slice(d.Entered, func(i, j int) bool { return d.Entered[i].TaskID < d.Entered[j].TaskID })
	sort.Slice(d.Left, func(i, j int) bool { return d.Left[i].TaskID < d.Left[j].TaskID })
	return d
}

func newSelectListCmd(app *App) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:     "list",
		Short:   "List saved selections, newest first",
		Example: "  curate select list\n  curate select list --json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ws, err := app.Workspace(cmd.Context())
			if err != nil {
				return err
			}
			sels, err := loadSelections(cmd.Context(), ws)
			if err != nil {
				return err
			}
			type row struct {
				Name      string    `json:"name"`
				CreatedAt time.Time `json:"created_at"`
				Source    string    `json:"source"`
				Tasks     int       `json:"tasks"`
			}
			rows := []row{}
			for _, s := range sels {
				rows = append(rows, row{s.Name, s.CreatedAt, s.Source, len(s.Tasks)})
			}
			if asJSON {
				return writeJSON(app.Out, rows)
			}
			if len(rows) == 0 {
				fmt.Fprintln(app.Out, "No selections yet: run `curate select`.")
				return nil
			}
			tw := tabwriter.NewWriter(app.Out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "NAME\tCREATED\tSOURCE\tTASKS")
			for _, r := range rows {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%d\n", sanitize.Line(r.Name), r.CreatedAt.Format(time.RFC3339), sanitize.Line(r.Source), r.Tasks)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array")
	return cmd
}

func loadSelections(ctx context.Context, ws *workspace.Workspace) ([]*pipeline.Selection, error) {
	names, err := ws.Store.Selections(ctx)
	if err != nil {
		return nil, err
	}
	var out []*pipeline.Selection
	for _, n := range names {
		s, err := ws.Store.Selection(ctx, n)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// resolveSelection loads a named selection, or the newest when name is "".
func resolveSelection(ctx context.Context, ws *workspace.Workspace, name string) (*pipeline.Selection, error) {
	if name != "" {
		return ws.Store.Selection(ctx, name)
	}
	names, err := ws.Store.Selections(ctx)
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, nil
	}
	return ws.Store.Selection(ctx, names[0])
}

// selectedTasks resolves a snapshot's task ids against the workspace.
func selectedTasks(sel *pipeline.Selection, tasks []*pipeline.Task) ([]*pipeline.Task, error) {
	byID := make(map[string]*pipeline.Task, len(tasks))
	for _, t := range tasks {
		byID[t.ID] = t
	}
	var out []*pipeline.Task
	var missing []string
	for _, st := range sel.Tasks {
		t := byID[st.TaskID]
		if t == nil {
			missing = append(missing, st.TaskID)
			continue
		}
		out = append(out, t)
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("selection %s names %d tasks no longer in the workspace (%s); run `curate select` again",
			sanitize.Line(sel.Name), len(missing), sanitize.Line(strings.Join(first(missing, 5), ", ")))
	}
	return out, nil
}

func first(xs []string, n int) []string {
	if len(xs) > n {
		return xs[:n]
	}
	return xs
}

// snapshotConfig decodes a snapshot's saved selection config.
func snapshotConfig(sel *pipeline.Selection) (selection.Config, error) {
	var cfg selection.Config
	data, err := json.Marshal(sel.Config)
	if err != nil {
		return cfg, err
	}
	if err := json.Unmarshal(data, &cfg); err != nil {
		return cfg, fmt.Errorf("selection %s: saved config: %w", sanitize.Line(sel.Name), err)
	}
	return cfg, nil
}
