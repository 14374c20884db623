package shared

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"

	"curate/app"
	"curate/pipeline"
	"curate/store"
)

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

// ReviewCmd records a review on ids as one undo step, through the
// operation `curate label --underspecified ...` uses (app.SetReview).
func (c *Context) ReviewCmd(ids []string, r app.Review) tea.Cmd {
	st, actor := c.Store, c.Actor
	if st == nil {
		return StatusCmd("no workspace: the review cannot be saved", true)
	}
	return c.Job(func() tea.Msg {
		evs, err := app.SetReview(context.Background(), st, actor, ids, r)
		return reloadAfter(st, evs, err, "review")
	})
}

// UndoCmd append the inverse (or re-application) of the last
// batch, as `curate undo` / `curate redo` do.
func (c *Context) UndoCmd(redo bool) tea.Cmd {
	st, actor := c.Store, c.Actor
	if st == nil {
		return StatusCmd("no workspace: nothing to undo", true)
	}
	ws := c.Services.Workspace
	return c.Job(func() tea.Msg {
		what := "undo"
		if redo {
			what = "redo"
		}
		if ws == nil { // no job services: the label fields alone
			f := st.Undo
			if redo {
				f = st.Redo
			}
			evs, err := f(context.Background(), actor)
			return reloadAfter(st, evs, err, what)
		}
		// As curate undo / redo: a statement or test-list change rewrites
		// the task dir too.
		evs, err := app.Replay(context.Background(), ws, actor, redo)
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
