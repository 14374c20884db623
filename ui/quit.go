package ui

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"curate/ui/components/frame"
	"curate/ui/shared"
)

// quitChoice is what the curator answered when quitting with validation
// runs in flight.
type quitChoice int

const (
	quitNotAsked    quitChoice = iota
	quitAskingEdits            // unsaved edits: save, discard or stay
	quitAsking                 // runs in flight: keep, cancel or stay
	quitKeepRuns               // close the screen, finish the runs and record them
	quitCancelRuns             // cancel the runs (recorded as cancelled), then quit
)

// quit quits at once when nothing would be lost, else asks: first about
// unsaved edits, then about runs in flight.
func (a *App) quit() tea.Cmd {
	a.quitSaves = nil
	if len(a.unsaved()) > 0 {
		a.quitting = quitAskingEdits
		return nil
	}
	return a.quitRuns()
}

func (a *App) quitRuns() tea.Cmd {
	if a.ctx.Long.Runs() == 0 && a.jobs.Running() == 0 {
		return a.quitNow()
	}
	a.quitting = quitAsking
	return nil
}

// quitNow quits after the saves the curator asked for have returned.
func (a *App) quitNow() tea.Cmd {
	if len(a.quitSaves) == 0 {
		return tea.Quit
	}
	return tea.Sequence(append(a.quitSaves, tea.Quit)...)
}

// unsaved lists what each screen would lose.
func (a *App) unsaved() []string {
	var out []string
	for _, s := range a.screens {
		if u, ok := s.(shared.Unsaved); ok {
			if what := u.Unsaved(); what != "" {
				out = append(out, what)
			}
		}
	}
	return out
}

// quitKey answers the question asked. About edits: s saves them, d
// discards them, then the runs question follows if runs are in flight.
// About runs: k keeps them, c cancels them. Any other key stays in the
// workbench with nothing changed.
func (a *App) quitKey(m tea.KeyMsg) tea.Cmd {
	if a.quitting == quitAskingEdits {
		switch m.String() {
		case "s":
			for _, s := range a.screens {
				if u, ok := s.(shared.Unsaved); ok && u.Unsaved() != "" {
					a.quitSaves = append(a.quitSaves, u.SaveUnsaved())
				}
			}
			return a.quitRuns()
		case "d":
			return a.quitRuns()
		}
		a.quitting = quitNotAsked
		return shared.StatusCmd("still here: nothing saved or discarded", false)
	}
	switch m.String() {
	case "k":
		a.quitting = quitKeepRuns
		return a.quitNow()
	case "c":
		a.quitting = quitCancelRuns
		return a.quitNow()
	}
	a.quitting = quitNotAsked
	a.quitSaves = nil
	return shared.StatusCmd("still here: the runs go on", false)
}

func (a *App) quitView(w int) string {
	st := a.ctx.Styles
	if a.quitting == quitAskingEdits {
		lines := []string{st.Warn.Render("Quit with unsaved edits?"), ""}
		for _, u := range a.unsaved() {
			lines = append(lines, frame.Truncate("  - "+u, w))
		}
		lines = append(lines, "",
			st.Key.Render("  s  ")+"  save them, then quit",
			st.Key.Render("  d  ")+"  discard them and quit",
			st.Key.Render("  esc")+"  or any other key: stay")
		if n := a.ctx.Long.Runs() + a.jobs.Running(); n > 0 {
			lines = append(lines, "", fmt.Sprintf("  (%d run(s) or job(s) in flight: asked next)", n))
		}
		return strings.Join(lines, "\n")
	}
	n, j := a.ctx.Long.Runs(), a.jobs.Running()
	what := fmt.Sprintf("%d validation batch(es)", n)
	switch {
	case n == 0:
		what = fmt.Sprintf("%d job(s)", j)
	case j > 0:
		what += fmt.Sprintf(" and %d other job(s)", j)
	}
	lines := append([]string{st.Warn.Render("Quit with " + what + " in flight?")}, a.inFlight(w)...)
	lines = append(lines,
		"",
		st.Key.Render("  k  ")+"  keep them: the workbench closes, the runs finish and are recorded",
		"       (the terminal waits for them; ctrl+c there cancels them)",
		st.Key.Render("  c  ")+"  cancel them (recorded as cancelled) and quit",
		st.Key.Render("  esc")+"  or any other key: stay",
	)
	return strings.Join(lines, "\n")
}

// inFlight names each running job, one line each: its kind (validate,
// build, ...), what it works on and how far it got.
func (a *App) inFlight(w int) []string {
	var out []string
	for _, j := range a.ctx.Long.All() {
		if !j.Active() {
			continue
		}
		line := "  - " + j.Name
		if j.What != "" {
			line += " " + j.What
		}
		if j.Total > 0 {
			line += fmt.Sprintf(" (%d/%d done)", j.Done, j.Total)
		}
		out = append(out, frame.Truncate(line, w))
	}
	return out
}
