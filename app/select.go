package app

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"curate/pipeline"
	"curate/pipeline/profiles"
	"curate/pipeline/sanitize"
	"curate/pipeline/selection"
	"curate/pipeline/stats"
	"curate/workspace"
)

// SelectionConfig is the profile's [selection] with curate.toml's
// [selection] budget and quotas applied on top.
func SelectionConfig(ws *workspace.Workspace) (selection.Config, error) {
	p, err := LoadProfile(ws)
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

// LoadProfile loads the workspace's rule profile (ProfileSource).
func LoadProfile(ws *workspace.Workspace) (*profiles.Profile, error) {
	return profiles.Load(ProfileSource(ws))
}

// ProfileSource is the workspace's [profile]: the embedded profile's name
// and the override file, relative paths taken from the workspace root.
func ProfileSource(ws *workspace.Workspace) (name, file string) {
	name, file = ws.Config.Profile.Name, ws.Config.Profile.File
	if file != "" && !filepath.IsAbs(file) {
		file = filepath.Join(ws.Root, file)
	}
	return name, file
}

// Snapshot turns a solve into a named selection with its config and stats.
func Snapshot(name string, cfg selection.Config, tasks []*pipeline.Task, res *selection.Result) (*pipeline.Selection, *stats.Stats, error) {
	selected := make([]*pipeline.Task, len(res.Picks))
	sel := &pipeline.Selection{Name: name, CreatedAt: time.Now().UTC(), Source: "solver"}
	for i, p := range res.Picks {
		selected[i] = p.Task
		sel.Tasks = append(sel.Tasks, pipeline.SelectedTask{TaskID: p.Task.ID, Rationale: p.Rationale, Rank: i + 1})
	}
	st := stats.Compute(tasks, selected, StatsOptions(cfg))
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

func StatsOptions(cfg selection.Config) stats.Options {
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

func LoadSelections(ctx context.Context, ws *workspace.Workspace) ([]*pipeline.Selection, error) {
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

// ResolveSelection loads a named selection, or the newest when name is "".
func ResolveSelection(ctx context.Context, ws *workspace.Workspace, name string) (*pipeline.Selection, error) {
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

// SelectedTasks resolves a snapshot's task ids against the workspace.
func SelectedTasks(sel *pipeline.Selection, tasks []*pipeline.Task) ([]*pipeline.Task, error) {
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

// SnapshotConfig decodes a snapshot's saved selection config.
func SnapshotConfig(sel *pipeline.Selection) (selection.Config, error) {
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

type SelectionDiff struct {
	From    string                  `json:"from"`
	To      string                  `json:"to"`
	Entered []pipeline.SelectedTask `json:"entered"`
	Left    []pipeline.SelectedTask `json:"left"`
	Kept    int                     `json:"kept"`
}

func DiffSelections(a, b *pipeline.Selection) SelectionDiff {
	d := SelectionDiff{From: a.Name, To: b.Name, Entered: []pipeline.SelectedTask{}, Left: []pipeline.SelectedTask{}}
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

// SelectionSettings is what the Quotas screen edits: the profile's
// [selection] and curate.toml's overrides as written on disk now, checked
// the way Select checks them.
func SelectionSettings(ws *workspace.Workspace) (selection.Config, workspace.SelectionConfig, error) {
	p, err := LoadProfile(ws)
	if err != nil {
		return selection.Config{}, workspace.SelectionConfig{}, err
	}
	if _, err := SelectionConfig(ws); err != nil {
		return selection.Config{}, workspace.SelectionConfig{}, err
	}
	cfg, err := workspace.LoadConfig(ws.ConfigPath())
	if err != nil {
		return selection.Config{}, workspace.SelectionConfig{}, err
	}
	return p.Selection, cfg.Selection, nil
}

// SelectOptions adjust a solve on top of the workspace's configuration.
type SelectOptions struct {
	Name   string           // snapshot name; "" means sel-<UTC time>
	Budget *int             // overrides the configured budget
	Quotas []pipeline.Quota // added to the configured quotas
	// AllowInfeasible saves a solve that misses a quota or a take; without
	// it such a solve is returned unsaved (Selected.Saved false).
	AllowInfeasible bool
	// DryRun solves and returns the snapshot without saving it.
	DryRun bool
	// Filter keeps the solver to the tasks matching a filter expression
	// ("" is every task); statistics still compare with every task.
	Filter string
}

// Selected is a solve and its snapshot, saved unless it is infeasible
// and AllowInfeasible was not set.
type Selected struct {
	Result     *selection.Result
	Selection  *pipeline.Selection
	Stats      *stats.Stats
	Saved      bool
	Shortfalls []string // see Shortfalls
}

// Select solves the selection under the profile, curate.toml and o, and
// saves it as a named snapshot when it meets every quota and take (or
// o.AllowInfeasible).
func Select(ctx context.Context, ws *workspace.Workspace, o SelectOptions) (*Selected, error) {
	cfg, err := SelectionConfig(ws)
	if err != nil {
		return nil, err
	}
	if o.Budget != nil {
		cfg.Budget = o.Budget
	}
	cfg.Quotas = append(cfg.Quotas, o.Quotas...)
	tasks, err := ws.Store.Tasks(ctx)
	if err != nil {
		return nil, err
	}
	candidates := tasks
	if o.Filter != "" {
		if candidates, err = FilterTasks(ctx, ws, o.Filter); err != nil {
			return nil, err
		}
	}
	solver, err := selection.NewSolver(candidates, cfg)
	if err != nil {
		return nil, err
	}
	res, err := solver.Solve()
	if err != nil {
		return nil, err
	}
	short := Shortfalls(res)
	if o.DryRun || len(short) > 0 && !o.AllowInfeasible {
		sel, st, err := Snapshot(snapshotName(o.Name), solver.Config(), tasks, res)
		if err != nil {
			return nil, err
		}
		return &Selected{Result: res, Selection: sel, Stats: st, Shortfalls: short}, nil
	}
	sel, st, err := saveSnapshot(ctx, ws, o.Name, solver.Config(), tasks, res)
	if err != nil {
		return nil, err
	}
	return &Selected{Result: res, Selection: sel, Stats: st, Saved: true, Shortfalls: short}, nil
}

// Shortfalls are what keeps a solve from its targets, one line each: quota
// violations and benchmarks with fewer candidates than their take.
func Shortfalls(res *selection.Result) []string {
	var out []string
	for _, v := range res.Violations {
		out = append(out, sanitize.Line(v.Message))
	}
	for _, s := range res.Shortfalls {
		out = append(out, fmt.Sprintf("benchmark %s: take %d, %d available (short by %d)", sanitize.Line(s.Benchmark), s.Take, s.Available, s.Short))
	}
	return out
}

func snapshotName(name string) string {
	if name == "" {
		return "sel-" + time.Now().UTC().Format("20060102-150405")
	}
	return name
}

// SaveSolve saves a solve made elsewhere (the Quotas screen) as a named
// snapshot, as Select does.
func SaveSolve(ctx context.Context, ws *workspace.Workspace, name string, cfg selection.Config, res *selection.Result) (*pipeline.Selection, error) {
	tasks, err := ws.Store.Tasks(ctx)
	if err != nil {
		return nil, err
	}
	sel, _, err := saveSnapshot(ctx, ws, name, cfg, tasks, res)
	return sel, err
}

func saveSnapshot(ctx context.Context, ws *workspace.Workspace, name string, cfg selection.Config, tasks []*pipeline.Task, res *selection.Result) (*pipeline.Selection, *stats.Stats, error) {
	sel, st, err := Snapshot(snapshotName(name), cfg, tasks, res)
	if err != nil {
		return nil, nil, err
	}
	if err := ws.Store.SaveSelection(ctx, sel); err != nil {
		return nil, nil, err
	}
	return sel, st, nil
}
