package shared

import (
	"fmt"
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/key"
)

// Action is one thing the curator can do, with its default keys. The
// palette lists them all; curate.toml [ui.keys] rebinds them by name.
type Action struct {
	Name  string
	Keys  []string
	Help  string
	Scope string // "global" or a screen title
}

// actions is every action of the workbench. Keys may repeat across scopes
// (only the active screen sees its keys) but never twice on one screen:
// ScreenScopes says which scopes each screen sees, and a test checks.
var actions = []Action{
	{"quit", []string{"q", "ctrl+c"}, "quit", "global"},
	{"help", []string{"?"}, "toggle help", "global"},
	{"palette", []string{":"}, "command palette", "global"},
	{"next_tab", []string{"tab"}, "next screen", "global"},
	{"prev_tab", []string{"shift+tab"}, "previous screen", "global"},
	// Direct jumps avoid the number keys, which label difficulty.
	{"screen_1", []string{"f1", "alt+1"}, "Candidates screen", "global"},
	{"screen_2", []string{"f2", "alt+2"}, "Task screen", "global"},
	{"screen_3", []string{"f3", "alt+3"}, "Diff screen", "global"},
	{"screen_4", []string{"f4", "alt+4"}, "Runs screen", "global"},
	{"screen_5", []string{"f5", "alt+5"}, "Quotas screen", "global"},
	{"screen_6", []string{"f6", "alt+6"}, "Export screen", "global"},
	{"screen_7", []string{"f7", "alt+7"}, "Repos screen", "global"},
	{"undo", []string{"u"}, "undo last change", "global"},
	{"redo", []string{"U"}, "redo", "global"},
	{"mouse", []string{"M"}, "toggle mouse", "global"},
	{"back", []string{"esc"}, "back / close", "global"},

	{"up", []string{"k", "up"}, "up", "move"},
	{"down", []string{"j", "down"}, "down", "move"},
	{"page_up", []string{"pgup", "ctrl+b"}, "page up", "move"},
	{"page_down", []string{"pgdown", "ctrl+f"}, "page down", "move"},
	{"top", []string{"g", "home"}, "top", "move"},
	{"bottom", []string{"G", "end"}, "bottom", "move"},

	{"open", []string{"enter"}, "open task", "Candidates"},
	{"diff", []string{"d"}, "open diff", "Candidates"},
	{"filter", []string{"/"}, "filter", "Candidates"},
	{"fuzzy", []string{"~"}, "substring/fuzzy filter", "Candidates"},
	{"facets", []string{"f"}, "facet filters", "Candidates"},
	{"sort", []string{"o"}, "sort by next column", "Candidates"},
	{"sort_reverse", []string{"O"}, "reverse sort", "Candidates"},
	{"mark", []string{" ", "space"}, "mark / unmark", "Candidates"},
	{"mark_all", []string{"a"}, "mark all shown / none", "Candidates"},
	{"bulk", []string{"B"}, "bulk action", "Candidates"},
	{"save_view", []string{"w"}, "save view", "Candidates"},
	{"views", []string{"v"}, "saved views", "Candidates"},

	{"easy", []string{"1"}, "label easy, next", "label"},
	{"medium", []string{"2"}, "label medium, next", "label"},
	{"hard", []string{"3"}, "label hard, next", "label"},
	{"very_hard", []string{"4"}, "label very_hard, next", "label"},
	{"critical", []string{"5"}, "label critical, next", "label"},
	{"expert", []string{"6"}, "label expert, next", "label"},
	{"clear_difficulty", []string{"0"}, "clear difficulty label", "label"},
	{"phase", []string{"s"}, "set SDLC phase", "label"},
	{"category", []string{"c"}, "set category", "label"},
	{"note", []string{"n"}, "set note", "label"},
	{"exclude", []string{"x"}, "exclude (reason) / include", "label"},
	{"pin", []string{"p"}, "pin / unpin", "label"},
	{"review", []string{"r"}, "review (scores, fix time, comment)", "label"},

	// Not J/K: J is the jobs list on every screen.
	{"next_task", []string{"]"}, "next task", "Task"},
	{"prev_task", []string{"["}, "previous task", "Task"},
	{"review_queue", []string{"Q"}, "review queue (unreviewed valid tasks, flagged statements first)", "Task"},
	{"edit_instruction", []string{"e"}, "edit the problem statement in $EDITOR (undo reverts it)", "Task"},
	{"drop_tests", []string{"D"}, "drop FAIL_TO_PASS tests with a reason (rebuilt, validate again; undo reverts it)", "Task"},
	{"add_requirements", []string{"A"}, "add the values the tests check that the statement leaves out (strict_tests) to it (undo reverts it)", "Task"},

	{"show_bug", []string{"b"}, "bug.patch", "Diff"},
	{"show_fix", []string{"F"}, "fix.patch", "Diff"},
	{"show_tests", []string{"t"}, "test changes", "Diff"},
	{"side_by_side", []string{"S"}, "unified / side by side", "Diff"},
	{"next_hunk", []string{"]"}, "next hunk", "Diff"},
	{"prev_hunk", []string{"["}, "previous hunk", "Diff"},
	{"next_file", []string{"}"}, "next file", "Diff"},
	{"prev_file", []string{"{"}, "previous file", "Diff"},
	{"files", []string{"l"}, "toggle file list", "Diff"},
	{"scroll_right", []string{">", "right"}, "scroll long lines right", "Diff"},
	{"scroll_left", []string{"<", "left"}, "scroll long lines left", "Diff"},

	{"validate_start", []string{"v"}, "validate… (current / marked / filtered)", "Runs"},
	{"rerun", []string{"r"}, "rerun the selected run", "Runs"},
	{"cancel_run", []string{"x"}, "cancel the selected run (asks)", "Runs"},
	{"failure_filter", []string{"f"}, "failure review: next outcome class", "Runs"},
	{"edit_dockerfile", []string{"e"}, "edit environment/Dockerfile in $EDITOR", "Runs"},
	{"edit_test", []string{"t"}, "edit tests/test.sh in $EDITOR", "Runs"},
	{"edit_solve", []string{"s"}, "edit solution/solve.sh in $EDITOR", "Runs"},
	{"log_focus", []string{"enter"}, "focus the log / the run list", "Runs"},
	{"log_tests", []string{"T"}, "a finished run's test list / its raw log", "Runs"},
	{"log_wrap", []string{"w"}, "wrap long log lines", "log"},
	{"log_search", []string{"/"}, "search the log", "log"},
	{"log_next", []string{"n"}, "next match", "log"},
	{"log_prev", []string{"N"}, "previous match", "log"},
	{"log_first_error", []string{"E"}, "jump to the first error", "log"},
	{"log_follow", []string{"F"}, "follow the tail again", "log"},
	{"gold_matrix", []string{"m"}, "a gold run's test matrix (tests × buggy/fixed) / back to the runs", "Runs"},
	{"matrix_jump", []string{"enter"}, "show the test's result line in the chosen state's log", "matrix"},
	{"matrix_state", []string{"left", "right"}, "choose the buggy or the fixed state", "matrix"},
	{"matrix_class", []string{"c"}, "show all / F2P / P2P / flaky / other tests", "matrix"},
	{"matrix_sort", []string{"o"}, "sort by class / name / buggy / fixed status", "matrix"},
	{"matrix_filter", []string{"/"}, "filter tests by name", "matrix"},

	{"repo_edit", []string{"e"}, "edit the repo's profile ([repos] in curate.toml) in $EDITOR", "Repos"},
	{"repo_rebuild", []string{"R"}, "rebuild what the edit changed, rerun the repo's failures", "Repos"},
	{"repo_accept_env", []string{"a"}, "accept the failed env check's failing tests as known failures (curate env accept)", "Repos"},
	{"repo_next_class", []string{"]", "right", "l"}, "next failure class", "Repos"},
	{"repo_prev_class", []string{"[", "left", "h"}, "previous failure class", "Repos"},

	{"nudge_up", []string{"+", "=", "right", "l"}, "raise the value by one", "Quotas"},
	{"nudge_down", []string{"-", "left", "h"}, "lower the value by one", "Quotas"},
	{"next_field", []string{"]", "L"}, "next column (min / target / max / min% / max%)", "Quotas"},
	{"prev_field", []string{"[", "H"}, "previous column", "Quotas"},
	{"type_value", []string{"enter"}, "type a number (empty clears)", "Quotas"},
	{"remove_quota", []string{"x"}, "remove the quota (a profile's stays removed once saved)", "Quotas"},
	{"save_quotas", []string{"S"}, "save budget and quotas to curate.toml", "Quotas"},
	{"discard_quotas", []string{"D"}, "discard unsaved changes", "Quotas"},

	{"toggle_format", []string{" ", "space"}, "choose / drop a format", "Export"},
	{"edit_dest", []string{"o"}, "edit the destination folder", "Export"},
	{"run_export", []string{"X"}, "run the export", "Export"},
	{"refresh_preview", []string{"p"}, "render the report preview again", "Export"},
	{"allow_unvalidated", []string{"a"}, "allow unvalidated tasks in harbor / swebench (on / off)", "Export"},
	{"cancel_job", []string{"ctrl+x"}, "cancel newest job (asks)", "global"},
	// J means the jobs list on every screen; alt+j too (F7 is the Repos tab's).
	{"jobs", []string{"J", "alt+j"}, "jobs list", "global"},

	{"job_import", []string{"i"}, "import a path (job)", "Jobs"},
	{"job_mine", []string{"m"}, "mine a clone / OWNER/REPO", "Jobs"},
	{"job_build", []string{"b"}, "build tasks (job)", "Jobs"},
	{"job_validate", []string{"v"}, "validate tasks (job)", "Jobs"},
	{"job_rebuild", []string{"R"}, "rebuild a repo (job)", "Jobs"},
	{"job_campaign", []string{"c"}, "campaign: clones to validated tasks (job)", "Jobs"},
	{"job_cancel", []string{"x"}, "cancel the job (asks)", "Jobs"},
}

// KeyMap holds a binding per action after the curator's rebinding.
type KeyMap struct {
	b       map[string]key.Binding
	Rebound map[string]bool
}

// NewKeyMap applies overrides (action name -> keys, comma separated) from
// curate.toml [ui.keys]. An unknown action or an empty key list is an error.
func NewKeyMap(overrides map[string]string) (*KeyMap, error) {
	km := &KeyMap{b: map[string]key.Binding{}, Rebound: map[string]bool{}}
	for _, a := range actions {
		km.b[a.Name] = bind(a.Keys, a.Help, false)
	}
	names := make([]string, 0, len(overrides))
	for n := range overrides {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		a, ok := actionByName(name)
		if !ok {
			return nil, fmt.Errorf("[ui.keys] %s: unknown action (actions: %s)", name, strings.Join(ActionNames(), ", "))
		}
		var ks []string
		for _, k := range strings.Split(overrides[name], ",") {
			if k = strings.TrimSpace(k); k != "" {
				ks = append(ks, k)
			}
		}
		if len(ks) == 0 {
			return nil, fmt.Errorf("[ui.keys] %s: no key given", name)
		}
		km.b[name] = bind(ks, a.Help, true)
		km.Rebound[name] = true
	}
	return km, nil
}

func bind(keys []string, help string, rebound bool) key.Binding {
	shown := make([]string, 0, len(keys))
	for _, k := range keys {
		if k == " " {
			continue
		}
		shown = append(shown, k)
	}
	label := strings.Join(shown, "/")
	if rebound {
		help += " (rebound)"
	}
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(label, help))
}

func actionByName(name string) (Action, bool) {
	for _, a := range actions {
		if a.Name == name {
			return a, true
		}
	}
	return Action{}, false
}

// ScreenScopes are the scopes of actions each screen (and the jobs list)
// answers: the global keys, moving, its own, and its sub-modes'.
var ScreenScopes = map[string][]string{
	"Candidates":  {"global", "move", "Candidates", "label"},
	"Task":        {"global", "move", "Task", "label"},
	"Diff":        {"global", "move", "Diff"},
	"Runs":        {"global", "move", "Runs", "log"},
	"Runs matrix": {"global", "move", "matrix"},
	"Quotas":      {"global", "move", "Quotas"},
	"Export":      {"global", "move", "Export"},
	"Repos":       {"global", "move", "Repos"},
	"Jobs":        {"global", "move", "Jobs"},
}

// Actions is every action, in the palette's order.
func Actions() []Action { return actions }

// ActionNames lists every action name, for messages and the README.
func ActionNames() []string {
	out := make([]string, len(actions))
	for i, a := range actions {
		out[i] = a.Name
	}
	return out
}

// Get returns the binding of an action.
func (k *KeyMap) Get(name string) key.Binding {
	b, ok := k.b[name]
	if !ok {
		panic("ui: no action " + name) // a typo in this package, never user input
	}
	return b
}

// Is reports whether msg is a key of the action.
func (k *KeyMap) Is(msg interface{ String() string }, name string) bool {
	b := k.Get(name)
	s := msg.String()
	for _, x := range b.Keys() {
		if x == s {
			return true
		}
	}
	return false
}

// List returns the bindings of several actions.
func (k *KeyMap) List(names ...string) []key.Binding {
	out := make([]key.Binding, len(names))
	for i, n := range names {
		out[i] = k.Get(n)
	}
	return out
}

// DifficultyActions maps the labelling actions to difficulties (1-6).
var DifficultyActions = []string{"easy", "medium", "hard", "very_hard", "critical", "expert"}
