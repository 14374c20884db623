package ui

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/docker/docker/client"

	"curate/pipeline"
	"curate/ui/components/frame"
	"curate/ui/screens/candidates"
	"curate/ui/screens/diff"
	"curate/ui/screens/export"
	"curate/ui/screens/jobs"
	"curate/ui/screens/quotas"
	"curate/ui/screens/repos"
	"curate/ui/screens/runs"
	"curate/ui/screens/task"
	"curate/ui/shared"
)

// App is the root model: tab bar, the active screen, status bar, and the
// help and palette overlays. It routes messages; screens do the work.
type App struct {
	ctx     *shared.Context
	screens []shared.Screen
	active  shared.TabID
	help    bool
	palette *palette
	status  string
	statErr bool
	// statusFit is the line fitted to a width (StatusMsg.Fit), or nil.
	statusFit func(w int) string
	// statusSeq numbers status lines; one expires only if no newer one
	// replaced it. statusTTL 0 keeps lines until replaced (tests).
	statusSeq int
	statusTTL time.Duration
	// probeDocker is off in tests that must not depend on an engine.
	probeDocker bool
	runs        *runs.Model // stopped on exit
	quitting    quitChoice
	quitSaves   []tea.Cmd // the saves asked for at the quit prompt, run before quitting
	// jobs is the jobs list (J), drawn over the active screen while
	// jobsOpen; it hears every JobsMsg either way.
	jobs     *jobs.Model
	jobsOpen bool
	ticking  bool // a jobsTickMsg is on its way
	// jobsTick is how often the frame is redrawn while jobs run (0: never;
	// tests, whose loop runs timers at once).
	jobsTick time.Duration
}

// Options configure a new App.
type Options struct {
	Context     *shared.Context
	ProbeDocker bool
	// Catalog, when set, is used instead of loading tasks from the store
	// (benchmarks, tests).
	Catalog *shared.Catalog
	// Services drive the Runs, Quotas and Export screens (nil: none).
	Services *shared.Services
}

// New builds the workbench around ctx.
func New(o Options) *App {
	c := o.Context
	if c.Actor == "" {
		c.Actor = "unknown"
	}
	a := &App{ctx: c, probeDocker: o.ProbeDocker, statusTTL: statusTTL, jobsTick: time.Second}
	if o.Catalog != nil {
		c.Catalog = o.Catalog
	}
	if c.Catalog == nil {
		c.Catalog = shared.NewCatalog(nil, nil)
	}
	c.Services = o.Services
	if c.Services == nil {
		c.Services = &shared.Services{}
	}
	a.runs = runs.New(c)
	a.jobs = jobs.New(c)
	// The order is the tab order (shared.TabCandidates, ...).
	a.screens = []shared.Screen{
		candidates.New(c),
		task.New(c),
		diff.New(c),
		a.runs,
		quotas.New(c),
		export.New(c),
		repos.New(c),
	}
	if c.Width > 0 {
		a.resize(c.Width, c.Height)
	}
	if id := firstID(c.Catalog); id != "" && c.CurrentID == "" {
		c.CurrentID = id
	}
	return a
}

func firstID(c *shared.Catalog) string {
	if c != nil && len(c.Tasks) > 0 {
		return c.Tasks[0].ID
	}
	return ""
}

// Context exposes the shared context (tests).
func (a *App) Context() *shared.Context { return a.ctx }

// Init loads the catalogue and starts the Docker probe.
func (a *App) Init() tea.Cmd {
	var cmds []tea.Cmd
	if a.ctx.Store != nil && len(a.ctx.Catalog.Tasks) == 0 {
		cmds = append(cmds, shared.LoadCatalogCmd(a.ctx))
	}
	if a.probeDocker {
		cmds = append(cmds, a.dockerProbe())
	}
	for _, s := range a.screens {
		cmds = append(cmds, s.Init())
	}
	return tea.Batch(cmds...)
}

// dockerProbe pings the engines in the background; never in View. With
// the workbench's engine check wired, it asks the engines validation would
// use ([docker] hosts), else the environment's.
func (a *App) dockerProbe() tea.Cmd {
	if check := a.ctx.Services.CheckEngines; check != nil {
		return func() tea.Msg { return dockerMsg{state: shared.DockerStateOf(check(context.Background()))} }
	}
	return func() tea.Msg {
		cli, err := client.NewClientWithOpts(client.FromEnv, client.WithAPIVersionNegotiation())
		if err != nil {
			return dockerMsg{state: shared.DockerDown}
		}
		defer cli.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if _, err = cli.Ping(ctx); err != nil {
			return dockerMsg{state: shared.DockerDown}
		}
		return dockerMsg{state: shared.DockerUp}
	}
}

func (a *App) resize(w, h int) {
	a.ctx.Width, a.ctx.Height = w, h
	for _, s := range a.screens {
		s.SetSize(w, max(h-2, 1))
	}
	a.jobs.SetSize(w, max(h-2, 1))
}

// Update routes a message (see route) and keeps a one-second tick going
// while long jobs run, so their elapsed time and ETA move on screen even
// when no progress arrives.
func (a *App) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(jobsTickMsg); ok {
		a.ticking = false
	}
	m, cmd := a.route(msg)
	if a.ticking || a.jobsTick <= 0 || a.ctx.Long.Len() == 0 || a.quitting != quitNotAsked {
		return m, cmd
	}
	a.ticking = true
	return m, tea.Batch(cmd, tea.Tick(a.jobsTick, func(time.Time) tea.Msg { return jobsTickMsg{} }))
}

// jobsTickMsg redraws the frame while long jobs run.
type jobsTickMsg struct{}

// route routes a message: window and catalogue changes to every screen,
// addressed results to their screen, keys to the overlays or the active
// screen after the global keys.
func (a *App) route(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch m := msg.(type) {
	case jobsTickMsg:
		return a, nil
	case tea.WindowSizeMsg:
		a.resize(m.Width, m.Height)
		return a, a.broadcast(shared.ResizedMsg{})
	case shared.JobDoneMsg:
		a.ctx.Jobs = max(a.ctx.Jobs-1, 0)
		return a.Update(m.Inner)
	case shared.CatalogMsg:
		var expire tea.Cmd
		if m.Err != nil {
			expire = a.setStatus("load tasks: "+m.Err.Error(), true)
		}
		if m.Catalog != nil {
			a.ctx.Catalog, a.ctx.Selection = m.Catalog, m.Selection
			m.Catalog.Selected = m.Selection.IDs
			if a.ctx.Catalog.Task(a.ctx.CurrentID) == nil {
				a.ctx.CurrentID = firstID(m.Catalog)
			}
		}
		return a, tea.Batch(expire, a.broadcast(shared.CatalogChangedMsg{}))
	case shared.LabelledMsg:
		return a, a.labelled(m)
	case shared.StatusMsg:
		cmd := a.setStatus(m.Text, m.Err)
		a.statusFit = m.Fit
		return a, cmd
	case statusExpiredMsg:
		if int(m) == a.statusSeq {
			a.status, a.statErr, a.statusFit = "", false, nil
		}
		return a, nil
	case shared.SolvedMsg:
		return a, a.broadcast(m)
	case dockerMsg:
		a.ctx.Docker = m.state
		return a, tea.Tick(30*time.Second, func(t time.Time) tea.Msg { return dockerTickMsg(t) })
	case shared.EnginesMsg:
		a.ctx.Docker = shared.DockerStateOf(m.Report)
		if m.Quiet {
			return a, nil
		}
		return a, shared.EngineProblemCmd(m.Report)
	case dockerTickMsg:
		return a, a.dockerProbe()
	case shared.OpenTaskMsg:
		a.ctx.CurrentID = m.ID
		a.active, a.ctx.Active = m.Tab, m.Tab
		return a, a.broadcast(shared.CurrentMsg{ID: m.ID})
	case shared.CurrentMsg:
		a.ctx.CurrentID = m.ID
		return a, a.broadcast(m)
	case paletteRunMsg:
		a.palette = nil
		a.jobsOpen = m.scope == a.jobs.Title() // its actions act on the jobs list
		var cmds []tea.Cmd
		for i, s := range a.screens {
			if s.Title() == m.scope && shared.TabID(i) != a.active {
				cmds = append(cmds, a.switchTab(shared.TabID(i)))
			}
		}
		_, cmd := a.Update(m.key)
		return a, tea.Sequence(tea.Batch(cmds...), cmd)
	case tea.MouseMsg:
		return a, a.mouse(m)
	case tea.KeyMsg:
		return a, a.key(m)
	case shared.Addressed:
		return a, a.screens[m.Target()].Update(msg)
	case shared.JobsMsg:
		if _, ok := m.(shared.StartJobMsg); ok {
			a.jobsOpen = true // the curator sees the job start
		}
		return a, a.jobs.Update(msg)
	}
	return a, a.screens[a.active].Update(msg)
}

func (a *App) broadcast(msg tea.Msg) tea.Cmd {
	cmds := make([]tea.Cmd, 0, len(a.screens))
	for _, s := range a.screens {
		cmds = append(cmds, s.Update(msg))
	}
	return tea.Batch(cmds...)
}

// statusTTL is how long a status line stays: on a narrow terminal it
// takes the place of the counts, which must come back.
const statusTTL = 6 * time.Second

type statusExpiredMsg int

// setStatus shows a line in the status bar until it expires.
func (a *App) setStatus(text string, isErr bool) tea.Cmd {
	a.status, a.statErr, a.statusFit = text, isErr, nil
	if isErr && a.ctx.Log != nil {
		a.ctx.Log.Print(text)
	}
	a.statusSeq++
	if a.statusTTL <= 0 || text == "" {
		return nil
	}
	seq := a.statusSeq
	return tea.Tick(a.statusTTL, func(time.Time) tea.Msg { return statusExpiredMsg(seq) })
}

func (a *App) labelled(m shared.LabelledMsg) tea.Cmd {
	if m.Err != nil {
		return a.setStatus(m.What+": "+m.Err.Error(), true)
	}
	a.ctx.Catalog.Replace(m.Tasks)
	expire := a.setStatus(describeEvents(m.What, m.Events), false)
	ids := make([]string, 0, len(m.Tasks))
	for _, t := range m.Tasks {
		ids = append(ids, t.ID)
	}
	return tea.Batch(expire, a.broadcast(shared.CatalogChangedMsg{IDs: ids}))
}

func describeEvents(what string, evs []pipeline.Event) string {
	if len(evs) == 0 {
		return what + ": no change"
	}
	e := evs[0]
	old, nw := e.Old, e.New
	if old == "" {
		old = "∅"
	}
	if nw == "" {
		nw = "∅"
	}
	s := fmt.Sprintf("%s: %s %s %s → %s", what, frame.CleanLine(e.TaskID), e.Field, frame.CleanLine(old), frame.CleanLine(nw))
	if len(evs) > 1 {
		s += fmt.Sprintf(" (+%d more)", len(evs)-1)
	}
	if what != "undo" {
		return s + " · u undoes"
	}
	return s + " · U redoes"
}

func (a *App) key(m tea.KeyMsg) tea.Cmd {
	if m.Type == tea.KeyRunes && len(m.Runes) > 1 && !m.Paste {
		// Bubble Tea delivers keys typed faster than a read (key repeat,
		// tmux send-keys) as one message; each is a keypress here.
		cmds := make([]tea.Cmd, 0, len(m.Runes))
		for _, r := range m.Runes {
			cmds = append(cmds, a.key(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: m.Alt}))
		}
		return tea.Batch(cmds...)
	}
	k := a.ctx.Keys
	if a.quitting == quitAsking || a.quitting == quitAskingEdits {
		return a.quitKey(m)
	}
	if a.palette != nil {
		return a.palette.update(m, a)
	}
	if a.help {
		if k.Is(m, "help") || k.Is(m, "back") || k.Is(m, "quit") {
			a.help = false
		}
		return nil
	}
	if a.jobsOpen {
		if cmd, ok := a.jobsKey(m); ok {
			return cmd
		}
	}
	scr := a.screens[a.active]
	if scr.Capturing() {
		if m.Type == tea.KeyCtrlC {
			return a.quit()
		}
		return scr.Update(m)
	}
	if !k.Is(m, "cancel_job") {
		a.ctx.Long.Unconfirm()
	}
	switch {
	case k.Is(m, "quit"):
		return a.quit()
	case k.Is(m, "help"):
		a.help = true
		return nil
	case k.Is(m, "palette"):
		a.palette = newPalette(a)
		return nil
	case k.Is(m, "next_tab"):
		return a.switchTab((a.active + 1) % shared.TabID(len(a.screens)))
	case k.Is(m, "prev_tab"):
		return a.switchTab((a.active + shared.TabID(len(a.screens)) - 1) % shared.TabID(len(a.screens)))
	case k.Is(m, "cancel_job"):
		return a.ctx.Long.Key()
	case k.Is(m, "jobs") && !bindsKey(scr, m):
		a.jobsOpen = true
		return shared.CheckEnginesCmd(a.ctx, false) // its jobs build and validate
	case k.Is(m, "screen_1"), k.Is(m, "screen_2"), k.Is(m, "screen_3"), k.Is(m, "screen_4"), k.Is(m, "screen_5"), k.Is(m, "screen_6"), k.Is(m, "screen_7"):
		for i := range a.screens {
			if k.Is(m, fmt.Sprintf("screen_%d", i+1)) {
				return a.switchTab(shared.TabID(i))
			}
		}
		return nil
	case k.Is(m, "undo"):
		return a.ctx.UndoCmd(false)
	case k.Is(m, "redo"):
		return a.ctx.UndoCmd(true)
	case k.Is(m, "mouse"):
		a.ctx.Mouse = !a.ctx.Mouse
		if a.ctx.Mouse {
			return tea.Batch(a.setStatus("mouse on", false), tea.EnableMouseCellMotion)
		}
		return tea.Batch(a.setStatus("mouse off (terminal selection works again)", false), tea.DisableMouse)
	}
	if k.Is(m, "back") && a.active != shared.TabCandidates {
		if cmd := scr.Update(m); cmd != nil {
			return cmd
		}
		return a.switchTab(shared.TabCandidates)
	}
	return scr.Update(m)
}

func (a *App) switchTab(t shared.TabID) tea.Cmd {
	a.active, a.ctx.Active = t, t
	return a.screens[t].Update(shared.CurrentMsg{ID: a.ctx.CurrentID})
}

// mouse: a click on the tab bar switches tabs; the rest goes to the screen
// with coordinates relative to its area.
func (a *App) mouse(m tea.MouseMsg) tea.Cmd {
	if !a.ctx.Mouse || a.palette != nil || a.help || a.jobsOpen {
		return nil
	}
	if m.Y == 0 {
		if m.Action == tea.MouseActionPress && m.Button == tea.MouseButtonLeft {
			if t, ok := a.tabAt(m.X); ok {
				return a.switchTab(t)
			}
		}
		return nil
	}
	if m.Y >= a.ctx.Height-1 {
		return nil
	}
	m.Y--
	return a.screens[a.active].Update(m)
}

func (a *App) tabAt(x int) (shared.TabID, bool) {
	pos := 0
	for i, s := range a.screens {
		w := lipgloss.Width(a.tabLabel(shared.TabID(i), s)) + 2 // padding
		if x >= pos && x < pos+w {
			return shared.TabID(i), true
		}
		pos += w
	}
	return 0, false
}

// Run starts the program; opts are tea options (alt screen, mouse).
func Run(a *App, opts ...tea.ProgramOption) error {
	p := tea.NewProgram(a, opts...)
	_, err := p.Run()
	if a.quitting == quitKeepRuns {
		a.runs.Finish(os.Stderr)
		a.jobs.Finish(os.Stderr)
	} else {
		a.runs.Shutdown()
		a.jobs.Shutdown()
	}
	return err
}

// jobsKey handles a key while the jobs list is open: its forms take every
// key, esc or J closes it, the global keys that make sense over it work,
// the rest is the list's. ok false hands the key on to the usual path.
func (a *App) jobsKey(m tea.KeyMsg) (tea.Cmd, bool) {
	k := a.ctx.Keys
	switch {
	case a.jobs.Capturing():
		if m.Type == tea.KeyCtrlC {
			return a.quit(), true
		}
		return a.jobs.Update(m), true
	case k.Is(m, "back"), k.Is(m, "jobs"):
		a.jobsOpen = false
		return nil, true
	case k.Is(m, "quit"), k.Is(m, "help"), k.Is(m, "palette"), k.Is(m, "cancel_job"), k.Is(m, "mouse"):
		return nil, false
	case k.Is(m, "next_tab"), k.Is(m, "prev_tab"), isScreenKey(k, m):
		a.jobsOpen = false
		return nil, false
	}
	a.ctx.Long.Unconfirm()
	return a.jobs.Update(m), true
}

// isScreenKey reports a key that shows a tab (screen_1, screen_2, ...).
func isScreenKey(k *shared.KeyMap, m tea.KeyMsg) bool {
	for _, act := range shared.Actions() {
		if strings.HasPrefix(act.Name, "screen_") && k.Is(m, act.Name) {
			return true
		}
	}
	return false
}

// bindsKey reports whether the screen binds m itself (Task's J is next
// task): its own key wins over a global one.
func bindsKey(s shared.Screen, m tea.KeyMsg) bool {
	for _, g := range s.FullHelp() {
		for _, b := range g {
			for _, x := range b.Keys() {
				if x == m.String() {
					return true
				}
			}
		}
	}
	return false
}
