package form

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"curate/pipeline"
	"curate/ui/components/frame"
	"curate/ui/shared"
)

// Labeler turns the labelling keys into store changes for one or more
// tasks, asking for what a key alone cannot say (a phase, a category, a
// note, the reason for an exclusion). Candidates and Task both embed it.
type Labeler struct {
	ctx    *shared.Context
	prompt labelPrompt
	input  textinput.Model
	choice int
	ids    []string
	review reviewForm
	Width  int // of the prompt line
	// AfterReview, when set, follows a saved review (the Task screen's
	// review queue moves on to the next task with it).
	AfterReview func(ids []string) tea.Cmd
}

type labelPrompt int

const (
	promptNone labelPrompt = iota
	promptPhase
	promptCategory
	promptNote
	promptExclude
	promptReview
)

// NewLabeler makes the labelling prompts over c.
func NewLabeler(c *shared.Context) Labeler {
	in := NewInput()
	in.CharLimit = 500
	return Labeler{ctx: c, input: in}
}

// Active reports an open prompt.
func (l *Labeler) Active() bool { return l.prompt != promptNone }

// Bindings are the labelling keys, for help.
func (l *Labeler) Bindings() []key.Binding {
	return l.ctx.Keys.List(append(shared.DifficultyActions, "clear_difficulty", "phase", "category", "note", "exclude", "pin", "review")...)
}

// Handle reacts to a labelling key on ids. advance moves to the next task
// after a one-key decision (difficulty), as the curator works down a list.
func (l *Labeler) Handle(m tea.KeyMsg, ids []string, advance bool) (bool, tea.Cmd) {
	if l.Active() {
		return true, l.updatePrompt(m)
	}
	if len(ids) == 0 {
		return false, nil
	}
	k := l.ctx.Keys
	for i, name := range shared.DifficultyActions {
		if k.Is(m, name) {
			return true, l.apply(ids, pipeline.FieldDifficulty, string(pipeline.Difficulties[i]), "", advance)
		}
	}
	first := l.ctx.Catalog.Task(ids[0])
	switch {
	case k.Is(m, "clear_difficulty"):
		return true, l.apply(ids, pipeline.FieldDifficulty, "", "", false)
	case k.Is(m, "pin"):
		pin := first == nil || !first.Labels.Pinned
		return true, l.apply(ids, pipeline.FieldPinned, fmt.Sprint(pin), "", false)
	case k.Is(m, "exclude"):
		if first != nil && first.Labels.Excluded {
			return true, l.apply(ids, pipeline.FieldExcluded, "false", "", false)
		}
		return true, l.open(promptExclude, ids, "")
	case k.Is(m, "phase"):
		l.prompt, l.ids, l.choice = promptPhase, ids, 0
		if first != nil {
			l.choice = max(pipeline.PhaseRank(first.Phase())-1, 0)
		}
		return true, nil
	case k.Is(m, "category"):
		v := ""
		if first != nil {
			v = first.EffectiveCategory()
		}
		return true, l.open(promptCategory, ids, v)
	case k.Is(m, "review"):
		return true, l.OpenReview(ids)
	case k.Is(m, "note"):
		v := ""
		if first != nil {
			v = first.Labels.Note
		}
		return true, l.open(promptNote, ids, v)
	}
	return false, nil
}

func (l *Labeler) open(p labelPrompt, ids []string, value string) tea.Cmd {
	l.prompt, l.ids = p, ids
	target := fmt.Sprintf("%d tasks", len(ids))
	if len(ids) == 1 {
		target = ids[0]
	}
	label := map[labelPrompt]string{promptCategory: "Category", promptNote: "Note", promptExclude: "Reason to exclude"}[p]
	l.input.Prompt = label + " (" + target + "): "
	l.input.Width = max(l.Width-len(l.input.Prompt)-2, 10)
	l.input.SetValue(value)
	l.input.CursorEnd()
	return l.input.Focus()
}

func (l *Labeler) close() {
	l.prompt, l.ids = promptNone, nil
	l.input.Blur()
}

func (l *Labeler) apply(ids []string, field, value, note string, advance bool) tea.Cmd {
	changes := make([]pipeline.Change, len(ids))
	for i, id := range ids {
		changes[i] = pipeline.Change{TaskID: id, Field: field, New: value, Note: note}
	}
	cmd := l.ctx.LabelCmd(changes, "label")
	if advance && len(ids) == 1 {
		return tea.Sequence(cmd, shared.MsgCmd(shared.StepTaskMsg{Delta: 1}))
	}
	return cmd
}

func (l *Labeler) updatePrompt(m tea.KeyMsg) tea.Cmd {
	if m.Type == tea.KeyEsc {
		l.close()
		return nil
	}
	ids := l.ids
	if l.prompt == promptReview {
		return l.updateReview(m)
	}
	if l.prompt == promptPhase {
		n := len(pipeline.SDLCPhases) + 1 // last row clears the label
		switch {
		case m.Type == tea.KeyUp || m.String() == "k":
			l.choice = (l.choice + n - 1) % n
		case m.Type == tea.KeyDown || m.String() == "j":
			l.choice = (l.choice + 1) % n
		case m.Type == tea.KeyEnter:
			v := ""
			if l.choice < len(pipeline.SDLCPhases) {
				v = pipeline.SDLCPhases[l.choice]
			}
			l.close()
			return l.apply(ids, pipeline.FieldPhase, v, "", false)
		case len(m.Runes) == 1 && m.Runes[0] >= '1' && m.Runes[0] <= '9':
			if i := int(m.Runes[0] - '1'); i < n {
				l.choice = i
			}
		}
		return nil
	}
	if m.Type == tea.KeyEnter {
		v := strings.TrimSpace(l.input.Value())
		p := l.prompt
		l.close()
		switch p {
		case promptCategory:
			return l.apply(ids, pipeline.FieldCategory, v, "", false)
		case promptNote:
			return l.apply(ids, pipeline.FieldNote, v, "", false)
		case promptExclude:
			if v == "" {
				return shared.StatusCmd("exclude needs a reason; nothing changed", true)
			}
			return l.apply(ids, pipeline.FieldExcluded, "true", v, false)
		}
		return nil
	}
	var cmd tea.Cmd
	l.input, cmd = l.input.Update(m)
	return cmd
}

// View draws the open prompt (a few lines) or "".
func (l *Labeler) View(w int) string {
	st := l.ctx.Styles
	target := fmt.Sprintf("%d tasks", len(l.ids))
	if len(l.ids) == 1 {
		target = l.ids[0]
	}
	switch l.prompt {
	case promptPhase:
		var b strings.Builder
		b.WriteString(st.Title.Render("SDLC phase for "+target) + st.Muted.Render("  j/k or 1-9, enter sets, esc cancels") + "\n")
		for i := 0; i <= len(pipeline.SDLCPhases); i++ {
			name := "(clear the label)"
			if i < len(pipeline.SDLCPhases) {
				name = pipeline.SDLCPhases[i]
			}
			line := fmt.Sprintf("%d %s", i+1, name)
			if i == l.choice {
				b.WriteString(st.Cursor.Render(frame.PadRight("> "+line, min(w, 40))) + "\n")
			} else {
				b.WriteString("  " + line + "\n")
			}
		}
		return strings.TrimRight(b.String(), "\n")
	case promptCategory, promptNote, promptExclude:
		return l.input.View() + "\n" + st.Muted.Render("enter saves · esc cancels")
	case promptReview:
		return l.reviewView(w, target)
	}
	return ""
}

// Lines is the height of the open prompt (0 when none is open).
func (l *Labeler) Lines() int {
	switch l.prompt {
	case promptNone:
		return 0
	case promptPhase:
		return len(pipeline.SDLCPhases) + 2
	case promptReview:
		return reviewFieldCount + 1
	}
	return 2
}

// AskExclude opens the reason prompt of an exclusion of ids.
func (l *Labeler) AskExclude(ids []string) tea.Cmd { return l.open(promptExclude, ids, "") }

// AskPhase opens the phase chooser for ids.
func (l *Labeler) AskPhase(ids []string) { l.prompt, l.ids, l.choice = promptPhase, ids, 0 }

// Apply sets field to value on ids at once (a confirmed bulk action).
func (l *Labeler) Apply(ids []string, field, value string) tea.Cmd {
	return l.apply(ids, field, value, "", false)
}
