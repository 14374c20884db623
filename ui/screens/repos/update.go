package repos

import (
	"context"
	"fmt"
	"sort"

	tea "github.com/charmbracelet/bubbletea"

	"curate/app"
	"curate/pipeline"
	"curate/pipeline/validate"
	"curate/ui/shared"
	"curate/workspace"
)

// Update implements shared.Screen.
func (s *Model) Update(msg tea.Msg) tea.Cmd {
	switch m := msg.(type) {
	case shared.CurrentMsg, shared.ResizedMsg:
		if s.ctx.Active == shared.TabRepos && (!s.loaded || s.stale) {
			return s.load()
		}
	case shared.CatalogChangedMsg:
		if s.ctx.Active == shared.TabRepos && s.job == nil {
			return s.load()
		}
		s.stale = true
	case loadedMsg:
		s.loading = false
		if m.err != nil {
			s.loadErr = m.err.Error()
			return nil
		}
		s.setRepos(m.repos)
	case editReadyMsg:
		if m.err != nil {
			s.editErr = m.err.Error()
			return nil
		}
		ed := m.ed
		return tea.ExecProcess(ed.Command(), func(err error) tea.Msg { return editorExitMsg{ed, err} })
	case editorExitMsg:
		return s.editorExit(m)
	case editAppliedMsg:
		return s.applied(m)
	case enginesCheckedMsg:
		return s.enginesChecked(m)
	case rebuiltMsg:
		return s.rebuilt(m)
	case runDoneMsg:
		return s.runDone(m)
	case jobDoneMsg:
		return s.jobDone(m)
	case acceptedMsg:
		return s.accepted(m)
	case tea.KeyMsg:
		return s.key(m)
	}
	return nil
}

// load reads runs from the store and groups the catalogue's mined tasks
// by repository, off the UI loop.
func (s *Model) load() tea.Cmd {
	if s.loading || s.ctx.Store == nil {
		return nil
	}
	s.loading, s.stale = true, false
	tasks := make([]*pipeline.Task, 0, 64)
	for _, t := range s.ctx.Catalog.Tasks {
		if t.Mined() {
			tasks = append(tasks, t)
		}
	}
	st, configs, stateOf := s.ctx.Store, s.ctx.Services.RepoConfigs, s.ctx.Services.RepoState
	return s.ctx.Job(func() tea.Msg {
		runs, err := st.Runs(context.Background(), "")
		if err != nil {
			return loadedMsg{err: fmt.Errorf("load runs: %w", err)}
		}
		var cfg map[string]workspace.RepoConfig
		if configs != nil {
			cfg = configs()
		}
		repos := newRepoStates(tasks, runs, cfg)
		if stateOf != nil {
			for _, r := range repos {
				if rs, err := stateOf(r.name); err == nil {
					r.state = rs
					r.profile.SetState(rs)
				}
			}
		}
		return loadedMsg{repos: repos}
	})
}

// SetData shows tasks and runs without the store (tests, benchmarks).
func (s *Model) SetData(tasks []*pipeline.Task, runs []*pipeline.Run, configs map[string]workspace.RepoConfig) {
	s.setRepos(newRepoStates(tasks, runs, configs))
}

func (s *Model) setRepos(rs []*repoState) {
	name := ""
	if r := s.selected(); r != nil {
		name = r.name
	}
	s.repos, s.byName, s.loaded, s.loadErr = rs, map[string]*repoState{}, true, ""
	s.cursor = 0
	for i, r := range rs {
		s.byName[r.name] = r
		if r.name == name {
			s.cursor = i
		}
	}
	s.clampClass()
}

// sortStates orders repos by name.
func sortStates(rs []*repoState) {
	sort.Slice(rs, func(i, j int) bool { return rs[i].name < rs[j].name })
}

func (s *Model) clampClass() {
	n := 0
	if r := s.selected(); r != nil && r.profile != nil {
		n = len(r.profile.Failures)
	}
	s.class = max(min(s.class, n-1), 0)
}

func (s *Model) key(m tea.KeyMsg) tea.Cmd {
	k := s.ctx.Keys
	switch {
	case k.Is(m, "up"):
		s.move(-1)
	case k.Is(m, "down"):
		s.move(1)
	case k.Is(m, "top"):
		s.move(-len(s.repos))
	case k.Is(m, "bottom"):
		s.move(len(s.repos))
	case k.Is(m, "repo_next_class"):
		s.class++
		s.clampClass()
	case k.Is(m, "repo_prev_class"):
		s.class--
		s.clampClass()
	case k.Is(m, "repo_edit"):
		return s.edit()
	case k.Is(m, "repo_rebuild"):
		return s.rebuild()
	case k.Is(m, "repo_accept_env"):
		return s.acceptEnv()
	case k.Is(m, "back"):
		if s.draft != nil {
			s.draft.Discard()
			s.draft, s.editErr = nil, ""
			return tea.Batch(shared.StatusCmd("the refused edit is discarded; curate.toml is as it was", false), shared.Consumed)
		}
	}
	return nil
}

func (s *Model) move(d int) {
	if len(s.repos) == 0 {
		return
	}
	c := max(min(s.cursor+d, len(s.repos)-1), 0)
	if c != s.cursor {
		s.cursor, s.class = c, 0
	}
	s.clampClass()
}

// edit opens the selected repo's profile in $EDITOR: the refused draft
// again when there is one, else its section of curate.toml.
func (s *Model) edit() tea.Cmd {
	r := s.selected()
	if r == nil {
		return shared.StatusCmd("no repository: mine one first (curate mine git PATH)", true)
	}
	if s.draft != nil && s.draft.Repo == r.name {
		return shared.MsgCmd(editReadyMsg{ed: s.draft})
	}
	start := s.ctx.Services.EditRepoProfile
	if start == nil {
		return shared.StatusCmd("editing a profile needs a workspace", true)
	}
	if s.draft != nil {
		s.draft.Discard()
		s.draft, s.editErr = nil, ""
	}
	repo := r.name
	return s.ctx.Job(func() tea.Msg {
		ed, err := start(context.Background(), repo)
		return editReadyMsg{ed: ed, err: err}
	})
}

func (s *Model) editorExit(m editorExitMsg) tea.Cmd {
	if m.err != nil {
		m.ed.Discard()
		s.draft = nil
		s.editErr = fmt.Sprintf("editor: %v (curate.toml is unchanged)", m.err)
		return nil
	}
	ed := m.ed
	return s.ctx.Job(func() tea.Msg {
		changed, err := ed.Apply()
		return editAppliedMsg{ed: ed, changed: changed, err: err}
	})
}

func (s *Model) applied(m editAppliedMsg) tea.Cmd {
	if m.err != nil {
		s.draft, s.editErr = m.ed, m.err.Error()
		return shared.StatusCmd("profile refused: curate.toml is unchanged (e reopens the edit, esc drops it)", true)
	}
	s.draft, s.editErr = nil, ""
	if !m.changed {
		return shared.StatusCmd("no change to [repos.\""+m.ed.Repo+"\"]", false)
	}
	return tea.Batch(shared.StatusCmd("saved [repos.\""+m.ed.Repo+"\"] · R rebuilds what changed and reruns the failures", false), s.load())
}

// rebuild asks the Docker engines whether they answer, as the Runs
// screen does before a validation (in a command, never in View), then
// starts the rebuild (enginesChecked).
func (s *Model) rebuild() tea.Cmd {
	r := s.selected()
	if r == nil {
		return shared.StatusCmd("no repository: mine one first (curate mine git PATH)", true)
	}
	if s.job != nil {
		return shared.StatusCmd("a rebuild of "+s.job.repo+" is running (ctrl+x cancels it)", true)
	}
	if s.checking != "" {
		return shared.StatusCmd("checking the Docker engines before rebuilding "+s.checking+"…", false)
	}
	svc := s.ctx.Services
	if svc.RebuildRepoTargets == nil {
		return shared.StatusCmd("rebuilding needs a workspace", true)
	}
	check := svc.CheckEngines
	if check == nil {
		return s.startRebuild(r.name, nil)
	}
	repo := r.name
	s.checking = repo
	return func() tea.Msg { return enginesCheckedMsg{repo: repo, report: check(context.Background())} }
}

// enginesChecked starts the rebuild the check was for, unless no engine
// answers: then the status bar says which and nothing starts.
func (s *Model) enginesChecked(m enginesCheckedMsg) tea.Cmd {
	s.checking = ""
	state := shared.MsgCmd(shared.EnginesMsg{Report: m.report, Quiet: true})
	if m.report.AllDown() {
		return tea.Batch(state, shared.EngineProblemCmd(m.report))
	}
	return tea.Batch(state, s.startRebuild(m.repo, m.report))
}

// startRebuild starts the background job: rebuild the repo with its
// profile, then validate what failed or changed through the Runs screen's
// path (Services.Validate, app.Validate). engines is the engine check's
// report; its problem line (some engines down) replaces the start line.
func (s *Model) startRebuild(repo string, engines app.EngineReport) tea.Cmd {
	svc := s.ctx.Services
	ctx, cancel := context.WithCancel(context.Background())
	j := &repoJob{repo: repo, cancel: cancel, events: make(chan tea.Msg, 64)}
	j.long = s.ctx.Long.Add("rebuild "+repo, 0, cancel)
	j.long.Runs = true
	s.job, s.jobLine = j, "rebuilding "+repo+"…"
	go func() {
		defer close(j.events)
		res, tasks, err := svc.RebuildRepoTargets(ctx, repo)
		if err != nil {
			j.events <- rebuiltMsg{res: res, err: err}
			return
		}
		modes, _ := validate.ParseModes("nop,oracle,gold")
		jobs, _ := validate.Jobs(s.ctx.Root, tasks, modes)
		j.events <- rebuiltMsg{res: res, reruns: len(tasks), jobs: len(jobs)}
		if len(jobs) == 0 || svc.Validate == nil {
			j.events <- jobDoneMsg{}
			return
		}
		runs, err := svc.Validate(ctx, jobs, app.ValidateOptions{
			Concurrency: svc.Concurrency, Runs: 1,
			OnDone: func(r *pipeline.Run) { j.events <- runDoneMsg{run: *r} },
		})
		j.events <- jobDoneMsg{runs: len(runs), err: err}
	}()
	start := shared.StatusCmd("rebuilding "+repo+"…", false)
	if p := shared.EngineProblemCmd(engines); p != nil {
		start = p
	}
	return tea.Batch(start, s.wait())
}

// wait reads the job's next event.
func (s *Model) wait() tea.Cmd {
	if s.job == nil {
		return nil
	}
	ch := s.job.events
	return func() tea.Msg {
		m, ok := <-ch
		if !ok {
			return nil
		}
		return m
	}
}

func (s *Model) rebuilt(m rebuiltMsg) tea.Cmd {
	j := s.job
	if j == nil {
		return nil
	}
	if m.err != nil {
		s.jobLine = "rebuild " + j.repo
		return s.jobDone(jobDoneMsg{err: m.err})
	}
	j.long.Progress("validate", 0, m.jobs, "")
	env := 0
	for _, t := range m.res.Tasks {
		if t.Change == "environment" {
			env++
		}
	}
	s.jobLine = fmt.Sprintf("rebuilt %s: %d task(s), %d changed (%d environment) · rerunning %d task(s), %d run(s)",
		j.repo, m.res.Built, m.res.Changed, env, m.reruns, m.jobs)
	if m.jobs == 0 {
		s.jobLine = fmt.Sprintf("rebuilt %s: %d task(s), %d changed (%d environment) · nothing failed or changed to rerun",
			j.repo, m.res.Built, m.res.Changed, env)
	}
	if r := s.byName[j.repo]; r != nil {
		for _, t := range m.res.Tasks { // a changed task starts over
			if c := r.byID[t.ID]; c != nil && t.Change != "none" && t.Change != "error" && t.Change != "rejected" {
				c.Status, c.Failure, c.Digest = pipeline.StatusBuilt, nil, t.Digest
			}
		}
		r.recompute(s.configs())
	}
	return s.wait()
}

func (s *Model) configs() map[string]workspace.RepoConfig {
	if f := s.ctx.Services.RepoConfigs; f != nil {
		return f()
	}
	return nil
}

// runDone counts a finished run at once: the task is judged again and
// the repo's funnel and classes recomputed.
func (s *Model) runDone(m runDoneMsg) tea.Cmd {
	if j := s.job; j != nil {
		j.long.Progress("validate", j.long.Done+1, j.long.Total, m.run.TaskID+" "+m.run.Mode)
		if m.run.Outcome == pipeline.OutcomeOK {
			j.ok++
		} else {
			j.bad++
		}
	}
	s.RunFinished(m.run)
	return s.wait()
}

// RunFinished applies one finished run to its repo (the benchmark's step).
func (s *Model) RunFinished(run pipeline.Run) {
	for _, r := range s.repos {
		if r.byID[run.TaskID] != nil {
			r.finish(run, s.configs())
			break
		}
	}
	s.clampClass()
}

func (s *Model) jobDone(m jobDoneMsg) tea.Cmd {
	j := s.job
	if j == nil {
		return nil
	}
	s.job = nil
	var cmds []tea.Cmd
	switch {
	case m.err != nil: // the jobs list (J) keeps the line, failed
		s.ctx.Long.Finish(j.long, s.jobLine, m.err)
		cmds = append(cmds, shared.StatusCmd(s.jobLine+": "+m.err.Error(), true))
		s.jobLine += ": " + m.err.Error()
	case m.runs > 0:
		s.jobLine += fmt.Sprintf(" · done: %d ok, %d not ok", j.ok, j.bad)
		s.ctx.Long.Finish(j.long, s.jobLine, nil)
		cmds = append(cmds, shared.StatusCmd(fmt.Sprintf("rerun %s done: %d ok, %d not ok", j.repo, j.ok, j.bad), false))
	default:
		s.ctx.Long.Finish(j.long, s.jobLine, nil)
	}
	if s.ctx.Store != nil {
		cmds = append(cmds, shared.LoadCatalogCmd(s.ctx)) // statuses recorded
	}
	return tea.Batch(cmds...)
}
