// Package ui is the terminal workbench: a root model (App) holding a small
// shared Context, and one Screen per tab. Screens never do I/O in View;
// loading, labelling and rendering Markdown run in tea.Cmds that answer
// with typed messages.
package ui

import (
	"context"
	"log"
	"sort"

	tea "github.com/charmbracelet/bubbletea"

	"curate/pipeline"
	"curate/store"
	"curate/themes"
)

// Context is what every screen shares. The App owns it; screens read it
// and ask the App to change it through messages.
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
	Docker        dockerState
	Mouse         bool
	Selection     selectionInfo // the newest saved selection
	Active        tabID         // the tab on screen, so hidden screens load lazily
	// Log receives the errors shown in the status bar (.curate/curate.log);
	// nil keeps them on screen only.
	Log *log.Logger
}

// selectionInfo is what the status bar says about the newest selection.
type selectionInfo struct {
	name             string
	selected, budget int
	ids              map[string]bool
}

type dockerState int

const (
	dockerUnknown dockerState = iota
	dockerUp
	dockerDown
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

// job runs f as a background command counted in the status bar.
func (c *Context) job(f func() tea.Msg) tea.Cmd {
	c.Jobs++
	return func() tea.Msg { return jobDoneMsg{f()} }
}

// labelCmd writes changes through the store's event log exactly as
// `curate label` does, then reloads the touched tasks.
func (c *Context) labelCmd(changes []pipeline.Change, what string) tea.Cmd {
	st, actor := c.Store, c.Actor
	if st == nil {
		return statusCmd("no workspace: labels cannot be saved", true)
	}
	return c.job(func() tea.Msg {
		evs, err := st.Label(context.Background(), actor, changes)
		return reloadAfter(st, evs, err, what)
	})
}

// undoCmd and redoCmd append the inverse (or re-application) of the last
// batch, as `curate undo` / `curate redo` do.
func (c *Context) undoCmd(redo bool) tea.Cmd {
	st, actor := c.Store, c.Actor
	if st == nil {
		return statusCmd("no workspace: nothing to undo", true)
	}
	return c.job(func() tea.Msg {
		f, what := st.Undo, "undo"
		if redo {
			f, what = st.Redo, "redo"
		}
		evs, err := f(context.Background(), actor)
		return reloadAfter(st, evs, err, what)
	})
}

func reloadAfter(st *store.Store, evs []pipeline.Event, err error, what string) tea.Msg {
	msg := labelledMsg{events: evs, err: err, what: what}
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
		msg.tasks, msg.err = st.Tasks(ctx)
		return msg
	}
	for _, id := range ids {
		t, err := st.Task(ctx, id)
		if err != nil {
			msg.err = err
			return msg
		}
		msg.tasks = append(msg.tasks, t)
	}
	return msg
}

// loadCatalogCmd reads every task and run from the store.
func loadCatalogCmd(c *Context) tea.Cmd {
	st := c.Store
	return c.job(func() tea.Msg {
		ctx := context.Background()
		tasks, err := st.Tasks(ctx)
		if err != nil {
			return catalogMsg{err: err}
		}
		runs, err := st.Runs(ctx, "")
		if err != nil {
			return catalogMsg{err: err}
		}
		sel, err := newestSelection(ctx, st)
		return catalogMsg{catalog: NewCatalog(tasks, runs), selection: sel, err: err}
	})
}

// newestSelection summarises the newest saved selection: its size and the
// budget its config recorded (0 when it has none).
func newestSelection(ctx context.Context, st *store.Store) (selectionInfo, error) {
	names, err := st.Selections(ctx)
	if err != nil || len(names) == 0 {
		return selectionInfo{}, err
	}
	sel, err := st.Selection(ctx, names[0])
	if err != nil {
		return selectionInfo{}, err
	}
	info := selectionInfo{name: sel.Name, selected: len(sel.Tasks), ids: make(map[string]bool, len(sel.Tasks))}
	for _, t := range sel.Tasks {
		info.ids[t.TaskID] = true
	}
	switch b := sel.Config["budget"].(type) {
	case float64:
		info.budget = int(b)
	case int:
		info.budget = b
	case int64:
		info.budget = int(b)
	}
	return info, nil
}
