// Package ui is the terminal workbench: a root model (App) holding a small
// shared Context, and one Screen per tab. Screens never do I/O in View;
// loading, labelling and rendering Markdown run in tea.Cmds that answer
// with typed messages.
package shared

import (
	"context"
	"sort"

	tea "github.com/charmbracelet/bubbletea"

	"curate/pipeline"
	"curate/pipeline/selection"
	"curate/store"
	"curate/themes"
)

// Context is what every screen shares. The App owns it; screens read it
// and ask the App to change it through messages. A screen writes only
// the fields it is named as the writer of.
type Context struct {
	Width, Height int // the whole terminal
	Styles        *themes.Styles
	Keys          *KeyMap
	Store         *store.Store // nil in benchmarks that never label
	Root          string       // workspace root ("" when none)
	Name          string       // workspace name for the status bar
	Actor         string
	Catalog       *Catalog
	CurrentID     string // the task under the Candidates cursor
	Jobs          int    // background commands in flight
	Docker        DockerState
	Mouse         bool
	Selection     SelectionInfo // the newest saved selection
	Active        TabID         // the tab on screen, so hidden screens load lazily
	// Services are the engines behind Runs, Quotas and Export.
	Services *Services
	// Long is the work that outlives a keypress (validations, exports).
	Long LongJobs
	// Table is what Candidates shows (written by Candidates only).
	Table TableState
	// Solve is the newest solve of the Quotas screen (written by Quotas
	// only; nil before the selection config has loaded).
	Solve *Solve
}

// TableState is the Candidates table as other screens see it: the
// catalogue indexes its filter shows, in order, and the marked ids.
type TableState struct {
	Rows   []int
	Marked map[string]bool
}

// Filtered is the ids the filter shows, in table order.
func (t TableState) Filtered(c *Catalog) []string {
	out := make([]string, 0, len(t.Rows))
	for _, i := range t.Rows {
		out = append(out, c.Tasks[i].ID)
	}
	return out
}

// MarkedIDs is the marked ids, sorted.
func (t TableState) MarkedIDs() []string {
	out := make([]string, 0, len(t.Marked))
	for id := range t.Marked {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// Solve is a solve result with the config it was solved under.
type Solve struct {
	Result *selection.Result
	Config selection.Config
}

// SelectionInfo is what the status bar says about the newest selection.
type SelectionInfo struct {
	Name             string
	Selected, Budget int
	IDs              map[string]bool
}

// DockerState is what the last probe of the engine said.
type DockerState int

const (
	DockerUnknown DockerState = iota
	DockerUp
	DockerDown
)

// Catalog is the workspace's tasks in memory (ordered by id) and the
// newest run of each, shared by every screen.
type Catalog struct {
	Tasks  []*pipeline.Task
	Latest map[string]*pipeline.Run
	index  map[string]int
	// Pinned and Excluded are kept up to date so the status bar never
	// walks the catalogue.
	Pinned, Excluded int
	// Selected holds the ids in the newest saved selection.
	Selected map[string]bool
}

func (c *Catalog) count(t *pipeline.Task, d int) {
	if t.Labels.Pinned {
		c.Pinned += d
	}
	if t.Labels.Excluded {
		c.Excluded += d
	}
}

// NewCatalog indexes tasks (sorted by id) and runs (newest first, as
// store.Runs returns them).
func NewCatalog(tasks []*pipeline.Task, runs []*pipeline.Run) *Catalog {
	sort.Slice(tasks, func(i, j int) bool { return tasks[i].ID < tasks[j].ID })
	c := &Catalog{Tasks: tasks, Latest: map[string]*pipeline.Run{}, index: make(map[string]int, len(tasks))}
	for i, t := range tasks {
		c.index[t.ID] = i
		c.count(t, 1)
	}
	for _, r := range runs {
		if _, ok := c.Latest[r.TaskID]; !ok {
			c.Latest[r.TaskID] = r
		}
	}
	return c
}

// Task returns a task by id, or nil.
func (c *Catalog) Task(id string) *pipeline.Task {
	if c == nil {
		return nil
	}
	if i, ok := c.index[id]; ok {
		return c.Tasks[i]
	}
	return nil
}

// Index is a task's position in Tasks, or -1.
func (c *Catalog) Index(id string) int {
	if i, ok := c.index[id]; ok {
		return i
	}
	return -1
}

// Replace swaps in fresh copies of tasks already in the catalogue (after a
// label change); positions do not move, so views built on indexes stay valid.
func (c *Catalog) Replace(tasks []*pipeline.Task) {
	for _, t := range tasks {
		if i, ok := c.index[t.ID]; ok {
			c.count(c.Tasks[i], -1)
			c.Tasks[i] = t
			c.count(t, 1)
		}
	}
}

// Job runs f as a background command counted in the status bar.
func (c *Context) Job(f func() tea.Msg) tea.Cmd {
	c.Jobs++
	return func() tea.Msg { return JobDoneMsg{f()} }
}

// LabelCmd writes changes through the store's event log exactly as
// `curate label` does, then reloads the touched tasks.
func (c *Context) LabelCmd(changes []pipeline.Change, what string) tea.Cmd {
	st, actor := c.Store, c.Actor
	if st == nil {
		return StatusCmd("no workspace: labels cannot be saved", true)
	}
	return c.Job(func() tea.Msg {
		evs, err := st.Label(context.Background(), actor, changes)
		return reloadAfter(st, evs, err, what)
	})
}

// UndoCmd append the inverse (or re-application) of the last
// batch, as `curate undo` / `curate redo` do.
func (c *Context) UndoCmd(redo bool) tea.Cmd {
	st, actor := c.Store, c.Actor
	if st == nil {
		return StatusCmd("no workspace: nothing to undo", true)
	}
	return c.Job(func() tea.Msg {
		f, what := st.Undo, "undo"
		if redo {
			f, what = st.Redo, "redo"
		}
		evs, err := f(context.Background(), actor)
		return reloadAfter(st, evs, err, what)
	})
}

func reloadAfter(st *store.Store, evs []pipeline.Event, err error, what string) tea.Msg {
	msg := LabelledMsg{Events: evs, Err: err, What: what}
	if err != nil {
		return msg
	}
	seen := map[string]bool{}
	var ids []string
	for _, e := range evs {
		if !seen[e.TaskID] {
			seen[e.TaskID] = true
			ids = append(ids, e.TaskID)
		}
	}
	ctx := context.Background()
	if len(ids) > 200 {
		msg.Tasks, msg.Err = st.Tasks(ctx)
		return msg
	}
	for _, id := range ids {
		t, err := st.Task(ctx, id)
		if err != nil {
			msg.Err = err
			return msg
		}
		msg.Tasks = append(msg.Tasks, t)
	}
	return msg
}

// LoadCatalogCmd reads every task and run from the store.
func LoadCatalogCmd(c *Context) tea.Cmd {
	st := c.Store
	return c.Job(func() tea.Msg {
		ctx := context.Background()
		tasks, err := st.Tasks(ctx)
		if err != nil {
			return CatalogMsg{Err: err}
		}
		runs, err := st.Runs(ctx, "")
		if err != nil {
			return CatalogMsg{Err: err}
		}
		sel, err := newestSelection(ctx, st)
		return CatalogMsg{Catalog: NewCatalog(tasks, runs), Selection: sel, Err: err}
	})
}

// newestSelection summarises the newest saved selection: its size and the
// budget its config recorded (0 when it has none).
func newestSelection(ctx context.Context, st *store.Store) (SelectionInfo, error) {
	names, err := st.Selections(ctx)
	if err != nil || len(names) == 0 {
		return SelectionInfo{}, err
	}
	sel, err := st.Selection(ctx, names[0])
	if err != nil {
		return SelectionInfo{}, err
	}
	info := SelectionInfo{Name: sel.Name, Selected: len(sel.Tasks), IDs: make(map[string]bool, len(sel.Tasks))}
	for _, t := range sel.Tasks {
		info.IDs[t.TaskID] = true
	}
	switch b := sel.Config["budget"].(type) {
	case float64:
		info.Budget = int(b)
	case int:
		info.Budget = b
	case int64:
		info.Budget = int(b)
	}
	return info, nil
}
