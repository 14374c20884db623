package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"curate/pipeline"
	"curate/pipeline/statement"
	"curate/workspace"
)

// The curator's edits of a task's statement and test lists are events
// (undo, redo, history) on the label fields instruction and tests_dropped;
// Recurate then makes the task dir agree with them.

// InstructionEdit is an edit of one task's statement in $EDITOR: the
// current text is written to a temp file (Path), the editor runs on it,
// and Apply saves what the curator wrote.
type InstructionEdit struct {
	ID       string
	Path     string
	original string
	ws       *workspace.Workspace
}

// editHeader opens the temp file; Apply drops it.
const editHeader = "<!-- curate: edit the problem statement below (Markdown). The title, Interface section and\n" +
	"     footer are added when instruction.md is written. Save an empty text to go back to the generated one. -->\n"

// StartInstructionEdit writes id's statement text (the curator's, else the
// generated one) to a temp file.
func StartInstructionEdit(ctx context.Context, ws *workspace.Workspace, id string) (*InstructionEdit, error) {
	t, err := ws.Store.Task(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := curatable(t); err != nil {
		return nil, err
	}
	text := t.Labels.Instruction
	if text == "" {
		in, err := ReadStatementInput(ctx, t)
		if err != nil {
			return nil, err
		}
		text = GeneratedText(in)
	}
	f, err := os.CreateTemp("", "curate-instruction-"+t.ID+"-*.md")
	if err != nil {
		return nil, fmt.Errorf("edit instruction: %w", err)
	}
	body := editHeader + "\n" + strings.TrimSpace(text) + "\n"
	_, err = f.WriteString(body)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return nil, fmt.Errorf("edit instruction: %w", err)
	}
	return &InstructionEdit{ID: t.ID, Path: f.Name(), original: body, ws: ws}, nil
}

// Command is the editor on the temp file.
func (e *InstructionEdit) Command() *exec.Cmd { return Editor(e.Path) }

// Discard removes the temp file.
func (e *InstructionEdit) Discard() { os.Remove(e.Path) }

// Apply saves the edited text as the curator's statement and rewrites the
// task dir; no events when the file was closed unchanged.
func (e *InstructionEdit) Apply(ctx context.Context, actor string) ([]pipeline.Event, error) {
	data, err := os.ReadFile(e.Path)
	if err != nil {
		return nil, fmt.Errorf("read the edit: %w", err)
	}
	defer e.Discard()
	if string(data) == e.original {
		return nil, nil
	}
	text := strings.TrimSpace(strings.Replace(string(data), editHeader, "", 1))
	return SetInstruction(ctx, e.ws, actor, e.ID, text)
}

// SetInstruction records text as the curator's statement of id ("" goes
// back to the generated one) and rewrites its instruction.md.
func SetInstruction(ctx context.Context, ws *workspace.Workspace, actor, id, text string) ([]pipeline.Event, error) {
	t, err := ws.Store.Task(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := curatable(t); err != nil {
		return nil, err
	}
	evs, err := ws.Store.Label(ctx, actor, []pipeline.Change{{TaskID: id, Field: pipeline.FieldInstruction, New: text}})
	if err != nil {
		return nil, err
	}
	return evs, recurateAfter(ctx, ws, evs)
}

// DropTests takes tests out of id's FAIL_TO_PASS or PASS_TO_PASS (list)
// with a reason; the task is rebuilt (test.sh no longer counts them) and
// must be validated again.
func DropTests(ctx context.Context, ws *workspace.Workspace, actor, id, list string, tests []string, reason string) ([]pipeline.Event, error) {
	if strings.TrimSpace(reason) == "" {
		return nil, errors.New("dropping tests needs a reason (environment-dependent, over-specified, ...)")
	}
	t, err := ws.Store.Task(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := curatable(t); err != nil {
		return nil, err
	}
	have := pipeline.ExtraStrings(t, list)
	ds := t.Labels.DroppedTests()
	for _, name := range tests {
		if !containsString(have, name) && !t.Labels.Dropped(list, name) {
			return nil, fmt.Errorf("%s: %q is not in its %s (%d tests; see curate show %s)", t.ID, name, list, len(have), t.ID)
		}
		ds = append(ds, pipeline.DroppedTest{Test: name, List: list, Reason: reason})
	}
	evs, err := ws.Store.Label(ctx, actor, []pipeline.Change{{TaskID: t.ID, Field: pipeline.FieldTestsDropped, New: pipeline.EncodeDropped(ds), Note: reason}})
	if err != nil {
		return nil, err
	}
	return evs, recurateAfter(ctx, ws, evs)
}

// curatable: curate writes the statements and test lists of the tasks it
// mined; an imported task's instruction.md and lists are its source's.
func curatable(t *pipeline.Task) error {
	if !t.Mined() {
		return fmt.Errorf("%s was imported (%s): curate edits the statements and tests of tasks it mined; edit the source and import again", t.ID, t.Source)
	}
	return nil
}

func containsString(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// Replay is `curate undo` / `curate redo`: the store reverts or re-applies
// the last batch, and a task whose statement or test lists it touched has
// its task dir rewritten to agree.
func Replay(ctx context.Context, ws *workspace.Workspace, actor string, redo bool) ([]pipeline.Event, error) {
	f := ws.Store.Undo
	if redo {
		f = ws.Store.Redo
	}
	evs, err := f(ctx, actor)
	if err != nil {
		return evs, err
	}
	return evs, recurateAfter(ctx, ws, evs)
}

// recurateAfter rewrites the tasks whose curator fields evs changed.
func recurateAfter(ctx context.Context, ws *workspace.Workspace, evs []pipeline.Event) error {
	seen := map[string]bool{}
	for _, e := range evs {
		if seen[e.TaskID] || e.Field != pipeline.FieldInstruction && e.Field != pipeline.FieldTestsDropped {
			continue
		}
		seen[e.TaskID] = true
		if err := Recurate(ctx, ws, e.TaskID, e.Field == pipeline.FieldTestsDropped); err != nil {
			return err
		}
	}
	return nil
}

// Recurate makes id's task dir agree with its curator fields: the
// statement is written again (digest recomputed) or, when the test lists
// changed, the task is rebuilt. A changed digest sends a valid or invalid
// task back to built: its runs were on other files.
func Recurate(ctx context.Context, ws *workspace.Workspace, id string, rebuild bool) error {
	t, err := ws.Store.Task(ctx, id)
	if err != nil {
		return err
	}
	if t.TaskDir == "" || !t.Mined() {
		return nil // not built (the next build writes it), or imported
	}
	if rebuild {
		restoreLists(t)
		if err := ws.Store.UpsertTasks(ctx, []*pipeline.Task{t}); err != nil {
			return err
		}
		// The same strategy (and snapshot) the task was built with.
		at := BuildStrategy(t)
		if snap, _ := t.Extra[pipeline.ExtraSnapshot].(string); at == pipeline.AtSnapshot && snap != "" {
			at += ":" + snap
		}
		res, err := Build(ctx, ws, BuildOptions{IDs: []string{t.ID}, At: at})
		if err == nil && len(res) == 1 && res[0].Error != "" {
			err = fmt.Errorf("rebuild %s: %s", t.ID, res[0].Error)
		}
		return err
	}
	digest, err := WriteStatement(ctx, ws, t, t.TaskDir)
	if err != nil {
		return err
	}
	if digest != t.Digest {
		t.Digest = digest
		if t.Status == pipeline.StatusValid || t.Status == pipeline.StatusInvalid {
			t.Status = pipeline.StatusBuilt
		}
	}
	return ws.Store.UpsertTasks(ctx, []*pipeline.Task{t})
}

// restoreLists keeps FAIL_TO_PASS and PASS_TO_PASS without the dropped
// tests (and with tests an undo gave back).
func restoreLists(t *pipeline.Task) {
	for _, list := range []string{"FAIL_TO_PASS", "PASS_TO_PASS"} {
		all := pipeline.ExtraStrings(t, list)
		for _, d := range pipeline.ExtraStrings(t, list+"_dropped") {
			if !containsString(all, d) {
				all = append(all, d)
			}
		}
		var kept, dropped []string
		for _, n := range all {
			if t.Labels.Dropped(list, n) {
				dropped = append(dropped, n)
			} else {
				kept = append(kept, n)
			}
		}
		if t.Extra == nil {
			t.Extra = map[string]any{}
		}
		if _, ok := t.Extra[list]; ok || len(kept) > 0 {
			t.Extra[list] = kept
		}
		t.Extra[list+"_dropped"] = dropped
		if len(dropped) == 0 {
			delete(t.Extra, list+"_dropped")
		}
	}
}

// Regenerated is what RegenerateInstructions did to one task.
type Regenerated struct {
	ID     string   `json:"id"`
	Result string   `json:"result"` // written, kept (a curator's edit), unbuilt, imported, error
	Source string   `json:"instruction_source,omitempty"`
	Flags  []string `json:"statement_flags"`
	Error  string   `json:"error,omitempty"`
}

// RegenerateInstructions writes instruction.md again for the tasks expr
// selects. A curator's statement is kept unless force, which clears it
// (an event: undo gives it back).
func RegenerateInstructions(ctx context.Context, ws *workspace.Workspace, actor, expr string, force bool) ([]Regenerated, error) {
	tasks, err := FilterTasks(ctx, ws, expr)
	if err != nil {
		return nil, err
	}
	var out []Regenerated
	for _, lt := range tasks {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		r := Regenerated{ID: lt.ID, Flags: []string{}}
		switch {
		case !lt.Mined():
			r.Result = "imported" // its instruction.md is its source's
		case lt.TaskDir == "":
			r.Result = "unbuilt"
		case lt.Labels.Instruction != "" && !force:
			r.Result = "kept"
		case lt.Labels.Instruction != "":
			if _, err := SetInstruction(ctx, ws, actor, lt.ID, ""); err != nil {
				return out, err
			}
			r.Result = "written"
		default:
			if err := Recurate(ctx, ws, lt.ID, false); err != nil {
				r.Result, r.Error = "error", err.Error()
			} else {
				r.Result = "written"
			}
		}
		if t, err := ws.Store.Task(ctx, lt.ID); err == nil {
			r.Source = pipeline.InstructionSource(t)
			if f := pipeline.StatementFlags(t); f != nil {
				r.Flags = f
			}
		}
		out = append(out, r)
	}
	return out, nil
}

// SetHints sets id's own [instructions] hints ("" = the workspace's) and
// writes its instruction.md again.
func SetHints(ctx context.Context, ws *workspace.Workspace, id, mode string) error {
	if mode != "" && !containsString(statement.HintModes, mode) {
		return fmt.Errorf("hints %q: want %s (or \"\" for the workspace's)", mode, strings.Join(statement.HintModes, " or "))
	}
	t, err := ws.Store.Task(ctx, id)
	if err != nil {
		return err
	}
	if err := curatable(t); err != nil {
		return err
	}
	if t.Extra == nil {
		t.Extra = map[string]any{}
	}
	delete(t.Extra, pipeline.ExtraHints)
	if mode != "" {
		t.Extra[pipeline.ExtraHints] = mode
	}
	if err := ws.Store.UpsertTasks(ctx, []*pipeline.Task{t}); err != nil {
		return err
	}
	return Recurate(ctx, ws, t.ID, false)
}
