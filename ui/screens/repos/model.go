// Package repos is the Repos screen: failure review by repository and
// class. One row per repository with its yield funnel; for the selected
// repo its failing tasks grouped by class, and for the selected class the
// evidence lines and the suggested [repos] fix. e edits the repo's profile
// in $EDITOR (strict read-back), R rebuilds what changed and reruns the
// repo's failures in the background; counts follow the runs as they end.
package repos

import (
	"context"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"curate/app"
	"curate/pipeline"
	"curate/ui/shared"
	"curate/workspace"
)

// Model is the Repos screen.
type Model struct {
	ctx  *shared.Context
	w, h int

	loaded  bool
	loading bool
	stale   bool // the catalogue changed while the screen was hidden
	loadErr string

	// repos holds one entry per repository with a mined task, by name.
	repos  []*repoState
	byName map[string]*repoState
	cursor int
	class  int // index into the selected repo's failure groups
	top    int // first repo row shown

	// draft is an edit refused on read-back, kept so e reopens it.
	draft   *app.ProfileEdit
	editErr string

	job      *repoJob
	jobLine  string // what the last rebuild and rerun did
	checking string // the repo whose R waits for the engine check
}

// repoState is one repository: its tasks (copies the screen updates as
// runs finish), their runs, and the profile computed from both.
type repoState struct {
	name    string
	tasks   []*pipeline.Task
	byID    map[string]*pipeline.Task
	runs    []*pipeline.Run
	runsOf  map[string][]*pipeline.Run
	state   *app.RepoState // snapshot and env check, nil when unknown
	profile *app.RepoProfile
}

// repoJob is a rebuild and rerun in flight.
type repoJob struct {
	repo   string
	long   *shared.LongJob
	cancel context.CancelFunc
	events chan tea.Msg
	ok     int
	bad    int
}

// Messages of the Repos screen.
type (
	loadedMsg struct {
		repos []*repoState
		err   error
	}
	editReadyMsg struct {
		ed  *app.ProfileEdit
		err error
	}
	editorExitMsg struct {
		ed  *app.ProfileEdit
		err error
	}
	editAppliedMsg struct {
		ed      *app.ProfileEdit
		changed bool
		err     error
	}
	rebuiltMsg struct {
		res    *app.RebuildResult
		reruns int
		jobs   int
		err    error
	}
	// enginesCheckedMsg is the engine check made before R starts.
	enginesCheckedMsg struct {
		repo   string
		report app.EngineReport
	}
	runDoneMsg struct{ run pipeline.Run }
	// acceptedMsg is the end of a (accept the env check's failures).
	acceptedMsg struct {
		repo string
		st   *app.RepoState
		err  error
	}
	jobDoneMsg struct {
		runs int
		err  error
	}
)

func (loadedMsg) Target() shared.TabID         { return shared.TabRepos }
func (editReadyMsg) Target() shared.TabID      { return shared.TabRepos }
func (editorExitMsg) Target() shared.TabID     { return shared.TabRepos }
func (editAppliedMsg) Target() shared.TabID    { return shared.TabRepos }
func (rebuiltMsg) Target() shared.TabID        { return shared.TabRepos }
func (runDoneMsg) Target() shared.TabID        { return shared.TabRepos }
func (enginesCheckedMsg) Target() shared.TabID { return shared.TabRepos }
func (jobDoneMsg) Target() shared.TabID        { return shared.TabRepos }
func (acceptedMsg) Target() shared.TabID       { return shared.TabRepos }

// New builds the screen.
func New(c *shared.Context) *Model {
	return &Model{ctx: c, byName: map[string]*repoState{}}
}

// Title implements shared.Screen.
func (s *Model) Title() string { return "Repos" }

// Init implements shared.Screen: nothing until the screen is shown.
func (s *Model) Init() tea.Cmd { return nil }

// SetSize implements shared.Screen.
func (s *Model) SetSize(w, h int) { s.w, s.h = w, h }

// Capturing implements shared.Screen.
func (s *Model) Capturing() bool { return false }

// ShortHelp implements shared.Screen.
func (s *Model) ShortHelp() []key.Binding {
	return s.ctx.Keys.List("up", "down", "repo_next_class", "repo_edit", "repo_rebuild")
}

// FullHelp implements shared.Screen.
func (s *Model) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		s.ctx.Keys.List("up", "down", "top", "bottom", "repo_next_class", "repo_prev_class"),
		s.ctx.Keys.List("repo_edit", "repo_rebuild", "repo_accept_env"),
	}
}

// selected is the repo under the cursor, or nil.
func (s *Model) selected() *repoState {
	if s.cursor >= 0 && s.cursor < len(s.repos) {
		return s.repos[s.cursor]
	}
	return nil
}

// newRepoStates groups mined tasks (copied: the screen judges them as
// runs finish) and runs by repository and computes each profile.
func newRepoStates(tasks []*pipeline.Task, runs []*pipeline.Run, configs map[string]workspace.RepoConfig) []*repoState {
	byName := map[string]*repoState{}
	var out []*repoState
	owner := map[string]*repoState{}
	for _, t := range tasks {
		if !t.Mined() {
			continue
		}
		r := byName[t.Repo]
		if r == nil {
			r = &repoState{name: t.Repo, byID: map[string]*pipeline.Task{}, runsOf: map[string][]*pipeline.Run{}}
			byName[t.Repo] = r
			out = append(out, r)
		}
		c := *t
		r.tasks = append(r.tasks, &c)
		r.byID[t.ID] = &c
		owner[t.ID] = r
	}
	for _, run := range runs {
		if r := owner[run.TaskID]; r != nil {
			r.runs = append(r.runs, run)
			r.runsOf[run.TaskID] = append(r.runsOf[run.TaskID], run)
		}
	}
	for _, r := range out {
		r.recompute(configs)
	}
	sortStates(out)
	return out
}

// recompute is the repo's profile from its tasks and runs in memory.
func (r *repoState) recompute(configs map[string]workspace.RepoConfig) {
	ps := app.ComputeRepoProfiles(r.tasks, r.runs, configs, r.name)
	if len(ps) == 1 {
		r.profile = ps[0]
		r.profile.SetState(r.state)
	}
}

// finish applies a finished run: the task is judged again from its runs,
// as RecordResults will, and the repo's counts recomputed.
func (r *repoState) finish(run pipeline.Run, configs map[string]workspace.RepoConfig) {
	t := r.byID[run.TaskID]
	if t == nil {
		return
	}
	rp := &run
	r.runs = append(r.runs, rp)
	r.runsOf[run.TaskID] = append(r.runsOf[run.TaskID], rp)
	if run.Digest != "" && run.Digest != t.Digest {
		t.Digest = run.Digest
	}
	switch v := pipeline.Judge(t, r.runsOf[run.TaskID]); {
	case v.Decided:
		t.Status, t.Failure = v.Status, v.Failure
	default:
		t.Status, t.Failure = pipeline.StatusBuilt, nil
	}
	r.recompute(configs)
}
