// Package ui is the terminal workbench: a root model (App) holding a small
// shared Context, and one Screen per tab. Screens never do I/O in View;
// loading, labelling and rendering Markdown run in tea.Cmds that answer
// with typed messages.
package shared

import (
	"log"
	"sort"

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
	// Log receives the errors shown in the status bar (.curate/curate.log);
	// nil keeps them on screen only.
	Log *log.Logger
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
	DockerSome // several engines, some of them down
)
