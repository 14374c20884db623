package shared

import (
	"sort"

	"curate/pipeline"
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
	sort.Slice(tasks, func(i, j int) bool { return pipeline.CompareIDs(tasks[i].ID, tasks[j].ID) < 0 })
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
