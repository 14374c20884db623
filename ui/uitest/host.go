package uitest

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"curate/ui/shared"
	"curate/workspace"
)

// Context is a workbench context on ws (nil: no workspace) with fixed
// styles and the default keys.
func Context(t testing.TB, theme string, ws *workspace.Workspace) *shared.Context {
	t.Helper()
	keys, err := shared.NewKeyMap(nil)
	if err != nil {
		t.Fatal(err)
	}
	c := &shared.Context{Styles: Styles(t, theme), Keys: keys, Name: "test-ws", Actor: "tester", Mouse: true,
		Catalog: shared.NewCatalog(nil, nil), Services: &shared.Services{}}
	if ws != nil {
		c.Store, c.Root = ws.Store, ws.Root
	}
	return c
}

// Host runs one screen as the App would, for the screen's own tests: it
// unwraps background answers, keeps the status line, applies catalogue
// and label results and the current task, drops messages addressed to
// other screens, and hands the rest to the screen.
type Host struct {
	Ctx       *shared.Context
	Screen    shared.Screen
	Tab       shared.TabID
	Status    string
	StatusErr bool
	// Opened is the last tab a screen asked to show.
	Opened shared.TabID
}

// NewHost shows s as tab at w×h, loads the catalogue and runs Init.
func NewHost(t testing.TB, c *shared.Context, tab shared.TabID, s shared.Screen, w, h int) *Host {
	t.Helper()
	x := &Host{Ctx: c, Screen: s, Tab: tab, Opened: -1}
	c.Width, c.Height, c.Active = w, h, tab
	s.SetSize(w, max(h-2, 1))
	if c.Store != nil {
		x.Run(t, shared.LoadCatalogCmd(c))
	}
	x.Run(t, s.Init())
	return x
}

// Update routes one message.
func (x *Host) Update(msg tea.Msg) tea.Cmd {
	c := x.Ctx
	switch m := msg.(type) {
	case shared.JobDoneMsg:
		c.Jobs = max(c.Jobs-1, 0)
		return x.Update(m.Inner)
	case shared.StatusMsg:
		x.Status, x.StatusErr = m.Text, m.Err
		return nil
	case shared.CatalogMsg:
		if m.Catalog != nil {
			c.Catalog, c.Selection = m.Catalog, m.Selection
			m.Catalog.Selected = m.Selection.IDs
		}
		return x.Screen.Update(shared.CatalogChangedMsg{})
	case shared.LabelledMsg:
		if m.Err != nil {
			x.Status, x.StatusErr = m.Err.Error(), true
			return nil
		}
		c.Catalog.Replace(m.Tasks)
		ids := make([]string, 0, len(m.Tasks))
		for _, t := range m.Tasks {
			ids = append(ids, t.ID)
		}
		x.Status, x.StatusErr = m.What, false
		return x.Screen.Update(shared.CatalogChangedMsg{IDs: ids})
	case shared.OpenTaskMsg:
		c.CurrentID, x.Opened = m.ID, m.Tab
		return x.Screen.Update(shared.CurrentMsg{ID: m.ID})
	case shared.CurrentMsg:
		c.CurrentID = m.ID
	case shared.Addressed:
		if m.Target() != x.Tab {
			return nil
		}
	}
	return x.Screen.Update(msg)
}

// Run executes cmd and everything it leads to.
func (x *Host) Run(t testing.TB, cmd tea.Cmd) {
	t.Helper()
	Run(t, x.Update, cmd)
}

// Press sends keys (bubbletea names or literal text) one after another.
func (x *Host) Press(t testing.TB, keys ...string) {
	t.Helper()
	for _, k := range keys {
		km := shared.KeyMsg(k)
		x.Run(t, func() tea.Msg { return km })
	}
}

// Type types s one rune at a time.
func (x *Host) Type(t testing.TB, s string) {
	t.Helper()
	for _, r := range s {
		km := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}}
		if r == ' ' {
			km = tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}
		}
		x.Run(t, func() tea.Msg { return km })
	}
}

// Current makes id the current task, as a cursor move in Candidates does.
func (x *Host) Current(t testing.TB, id string) {
	t.Helper()
	x.Run(t, shared.MsgCmd(shared.CurrentMsg{ID: id}))
}
