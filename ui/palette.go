package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"curate/ui/components/form"
	"curate/ui/components/frame"
	"curate/ui/components/scroller"
	"curate/ui/shared"
)

// palette is the `:` command palette: every action with its key, filtered
// as the curator types; enter runs the action by sending its key.
type palette struct {
	input textinput.Model
	items []paletteItem
	shown []int
	list  scroller.Model
	rows  int // item rows on screen, from the last frame
}

type paletteItem struct {
	name, keys, help, scope string
	first                   string
}

// paletteRunMsg runs an action: on its own screen (switching to it) when
// the action belongs to one, else on the screen in front.
type paletteRunMsg struct {
	key   tea.KeyMsg
	scope string
}

func newPalette(a *App) *palette {
	in := form.NewInput()
	in.Prompt = ": "
	in.Placeholder = "type to find an action"
	in.Focus()
	p := &palette{input: in}
	for _, act := range shared.Actions() {
		b := a.ctx.Keys.Get(act.Name)
		keys := b.Keys()
		if len(keys) == 0 {
			continue
		}
		p.items = append(p.items, paletteItem{name: act.Name, keys: b.Help().Key, help: b.Help().Desc, scope: act.Scope, first: keys[0]})
	}
	p.filter()
	return p
}

func (p *palette) filter() {
	q := strings.ToLower(p.input.Value())
	p.shown = p.shown[:0]
	for i, it := range p.items {
		if q == "" || strings.Contains(strings.ToLower(it.name+" "+it.help+" "+it.scope), q) {
			p.shown = append(p.shown, i)
		}
	}
	p.list.MoveTo(p.list.Cursor, len(p.shown), p.rows)
}

func (p *palette) update(m tea.KeyMsg, a *App) tea.Cmd {
	switch m.Type {
	case tea.KeyEsc, tea.KeyCtrlC:
		a.palette = nil
		return nil
	case tea.KeyUp, tea.KeyCtrlP:
		p.list.MoveBy(-1, len(p.shown), p.rows)
		return nil
	case tea.KeyDown, tea.KeyCtrlN:
		p.list.MoveBy(1, len(p.shown), p.rows)
		return nil
	case tea.KeyEnter:
		if len(p.shown) == 0 {
			return nil
		}
		it := p.items[p.shown[p.list.Cursor]]
		return shared.MsgCmd(paletteRunMsg{shared.KeyMsg(it.first), it.scope})
	}
	var cmd tea.Cmd
	p.input, cmd = p.input.Update(m)
	p.filter()
	return cmd
}

func (p *palette) view(a *App, w, h int) string {
	st := a.ctx.Styles
	var b strings.Builder
	b.WriteString(st.Title.Render("Command palette") + st.Muted.Render("  ↑/↓ choose · enter run · esc close") + "\n")
	b.WriteString(p.input.View() + "\n")
	p.rows = max(h-3, 1)
	p.list.MoveTo(p.list.Cursor, len(p.shown), p.rows)
	from, to := scroller.Window(p.list.Offset, len(p.shown), p.rows)
	for i := from; i < to; i++ {
		it := p.items[p.shown[i]]
		line := fmt.Sprintf("%-18s %-12s %-11s %s", it.name, it.keys, it.scope, it.help)
		if i == p.list.Cursor {
			b.WriteString(st.Cursor.Render(frame.PadRight("> "+line, w)) + "\n")
		} else {
			b.WriteString("  " + st.Base.Render(line) + "\n")
		}
	}
	return b.String()
}
