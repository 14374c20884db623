package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"

	"curate/ui/components/frame"
	"curate/ui/shared"
)

func (a *App) tabLabel(i shared.TabID, s shared.Screen) string {
	// F-keys, not digits: digits label difficulty.
	return fmt.Sprintf("F%d %s", i+1, s.Title())
}

// View draws the frame: no I/O, no style building.
func (a *App) View() string {
	w, h := a.ctx.Width, a.ctx.Height
	if w <= 0 || h <= 0 {
		return ""
	}
	body := ""
	switch {
	case a.quitting == quitAsking || a.quitting == quitAskingEdits:
		body = a.quitView(w)
	case a.palette != nil:
		body = a.palette.view(a, w, h-2)
	case a.help:
		body = a.helpView(w, h-2)
	case a.jobsOpen:
		body = a.jobs.View()
	default:
		body = a.screens[a.active].View()
	}
	return a.tabBar(w) + "\n" + frame.Fit(body, w, h-2) + "\n" + a.statusBar(w)
}

func (a *App) tabBar(w int) string {
	st := a.ctx.Styles
	render := func(gap string) string {
		var b strings.Builder
		for i, s := range a.screens {
			label := a.tabLabel(shared.TabID(i), s)
			if shared.TabID(i) == a.active {
				b.WriteString(st.TabActive.Render("[" + label + "]"))
			} else {
				b.WriteString(st.TabInactive.Render(gap + label + gap))
			}
		}
		return b.String()
	}
	line := render(" ")
	if lipgloss.Width(line)+len(" ? help") > w { // narrow: tighter gaps keep every tab's name and the hint
		line = render("")
	}
	// The help hint is never dropped: shorter forms as room shrinks, and
	// at the narrowest the tabs give way to " ? help".
	hints := []string{" tab screens  ? help  : commands", " ? help  : commands", " ? help", " ?help", " ?"}
	hint := st.Muted.Render(hints[len(hints)-1])
	for _, h := range hints {
		if r := st.Muted.Render(h); lipgloss.Width(line)+lipgloss.Width(r) <= w {
			hint = r
			break
		}
	}
	if room := w - lipgloss.Width(hint); lipgloss.Width(line) > room {
		line = frame.Truncate(line, max(room, 0))
	}
	line += strings.Repeat(" ", max(w-lipgloss.Width(line)-lipgloss.Width(hint), 0)) + hint
	return frame.Truncate(line, w)
}

func (a *App) statusBar(w int) string {
	st, c := a.ctx.Styles, a.ctx
	shown, total, marked := len(c.Table.Rows), len(c.Catalog.Tasks), len(c.Table.Marked)
	pinned, excluded := c.Catalog.Pinned, c.Catalog.Excluded
	docker := st.StatusBar.Render(" docker ?")
	switch c.Docker {
	case shared.DockerUp:
		docker = st.StatusOK.Render(" docker ✓")
	case shared.DockerDown:
		docker = st.StatusBad.Render(" docker ✗")
	case shared.DockerSome:
		docker = st.StatusBad.Render(" docker ✓✗") // several engines, some down
	}
	name := c.Name
	if name == "" {
		name = "no workspace"
	}
	sel := "no selection"
	if s := c.Selection; s.Name != "" {
		sel = fmt.Sprintf("selected %d", s.Selected)
		if s.Budget > 0 {
			sel = fmt.Sprintf("selected %d/%d", s.Selected, s.Budget)
		}
	}
	jobs := c.Jobs + c.Long.Len() // background commands and long jobs
	counts := fmt.Sprintf(" · %d/%d tasks · marked %d · pinned %d · excluded %d · %s · jobs %d", shown, total, marked, pinned, excluded, sel, jobs)
	if w < 120 { // short labels so an 80-column bar keeps every number
		sel = strings.NewReplacer("selected ", "sel ", "no selection", "sel -").Replace(sel)
		counts = fmt.Sprintf(" · %d/%d · mk %d · pin %d · excl %d · %s · jobs %d", shown, total, marked, pinned, excluded, sel, jobs)
	}
	// Docker first: it must not be cut off on a narrow terminal.
	nameCell := st.StatusKey.Render(frame.CleanLine(name))
	var long string
	if p := c.Long.Text(w < 120); p != "" { // long work first: it must stay visible
		long = st.StatusOK.Render(" " + p)
	}
	head := nameCell + docker + long
	left := head + st.StatusBar.Render(counts)
	msg := a.status
	if msg != "" {
		style := st.StatusBar
		if a.statErr {
			style = st.StatusBad
		}
		if a.statusFit != nil { // fitted beside the head; else the workspace name gives way
			room := w - lipgloss.Width(head) - 2
			if msg = a.statusFit(room); lipgloss.Width(msg) > room {
				head = docker + long
				msg = a.statusFit(w - lipgloss.Width(head) - 2)
			}
		}
		m := style.Render("  " + frame.CleanLine(msg))
		if lipgloss.Width(left)+lipgloss.Width(m) > w {
			left = head // the answer to what the curator just did comes first
		}
		left += m
	}
	pad := w - lipgloss.Width(left)
	if pad > 0 {
		left += st.StatusBar.Render(strings.Repeat(" ", pad))
	}
	return frame.Truncate(left, w)
}

func (a *App) helpView(w, h int) string {
	st := a.ctx.Styles
	k := a.ctx.Keys
	var scr interface {
		Title() string
		FullHelp() [][]key.Binding
	} = a.screens[a.active]
	if a.jobsOpen {
		scr = a.jobs
	}
	title := frame.Truncate(st.Title.Render("Keys: "+scr.Title())+st.Muted.Render("   (? or esc closes; rebind in curate.toml [ui.keys])"), w)
	// The keys every screen shares flow as one wrapped paragraph, so the
	// screen's own keys get the columns.
	global := helpFlow(k.List("quit", "help", "palette", "next_tab", "prev_tab", "undo", "redo", "mouse", "back", "jobs", "cancel_job"), w, st.Key, st.Desc)
	var entries []helpEntry
	for _, g := range scr.FullHelp() {
		for _, kb := range g {
			if kb.Enabled() {
				entries = append(entries, helpEntry{key: kb.Help().Key, desc: kb.Help().Desc})
			}
		}
		entries = append(entries, helpEntry{})
	}
	rows := max(h-3-strings.Count(global, "\n")-1, 1)
	return title + "\n\n" + global + "\n\n" + helpColumns(entries, w, rows, st.Key, st.Desc)
}
