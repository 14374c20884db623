// Package quotas is the Quotas screen: budget and quotas edited with a
// live re-solve.
package quotas

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"curate/pipeline"
	"curate/pipeline/selection"
	"curate/ui/components/form"
	"curate/ui/components/scroller"
	"curate/ui/shared"
	"curate/workspace"
)

// barDims are the dimensions the Quotas screen draws bars for.
var barDims = []string{"sdlc_phase", "language", "benchmark", "difficulty"}

// Model edits the budget and the quotas of the selection config and
// re-solves on every change with a selection.Solver kept across changes,
// so a nudge only re-runs the quota repair.
type Model struct {
	ctx *shared.Context
	svc *shared.Services

	profile   selection.Config
	overrides workspace.SelectionConfig
	loaded    bool
	haveCfg   bool
	loadErr   string

	solver *selection.Solver
	res    *selection.Result
	err    string
	// the config on disk (for dirty and discard)
	savedBudget *int
	budget      int
	quotas      []pipeline.Quota
	dirty       bool
	entered     []string
	left        []string

	rows   []quotaRow
	list   scroller.Model
	field  int // 0 min, 1 target, 2 max, 3 min_share, 4 max_share
	typing bool
	input  textinput.Model
	w, h   int
}

// quotaRow is the budget (dim "") or one dimension value, with the index
// of its quota (-1: none yet; nudging makes one).
type quotaRow struct {
	dim, value string
	quota      int
	have       int
	eligible   int
}

type selectionLoadedMsg struct {
	profile   selection.Config
	overrides workspace.SelectionConfig
	err       error
}

type quotasSavedMsg struct{ err error }

func (selectionLoadedMsg) Target() shared.TabID { return shared.TabQuotas }
func (quotasSavedMsg) Target() shared.TabID     { return shared.TabQuotas }

// New makes the Quotas screen.
func New(c *shared.Context) *Model {
	in := form.NewInput()
	in.Prompt = "value: "
	return &Model{ctx: c, svc: c.Services, input: in}
}

func (s *Model) Title() string   { return "Quotas" }
func (s *Model) Capturing() bool { return s.typing }
func (s *Model) SetSize(w, h int) {
	s.w, s.h = w, h
}

func (s *Model) Init() tea.Cmd { return nil }

func (s *Model) ShortHelp() []key.Binding {
	return s.ctx.Keys.List("nudge_up", "nudge_down", "next_field", "type_value", "save_quotas", "discard_quotas")
}

func (s *Model) FullHelp() [][]key.Binding {
	k := s.ctx.Keys
	return [][]key.Binding{k.List("up", "down", "page_up", "page_down", "nudge_up", "nudge_down", "next_field", "prev_field", "type_value", "remove_quota", "save_quotas", "discard_quotas")}
}

func (s *Model) loadCmd() tea.Cmd {
	if s.svc.Selection == nil {
		return nil
	}
	f := s.svc.Selection
	return s.ctx.Job(func() tea.Msg {
		p, o, err := f()
		return selectionLoadedMsg{p, o, err}
	})
}

// SetSelection loads a config directly (tests, benchmarks).
func (s *Model) SetSelection(profile selection.Config, overrides workspace.SelectionConfig) {
	s.Update(selectionLoadedMsg{profile: profile, overrides: overrides})
}

func (s *Model) Update(msg tea.Msg) tea.Cmd {
	switch m := msg.(type) {
	case shared.CurrentMsg:
		if s.ctx.Active == shared.TabQuotas {
			return s.ensure()
		}
	case shared.NeedSolveMsg:
		return s.ensure()
	case selectionLoadedMsg:
		s.loaded = true
		if m.err != nil {
			s.loadErr = m.err.Error()
			return nil
		}
		s.profile, s.overrides, s.haveCfg = m.profile, m.overrides, true
		s.discard()
		return shared.MsgCmd(shared.SolvedMsg{})
	case shared.CatalogChangedMsg: // pins and exclusions from Candidates
		if s.haveCfg {
			s.rebuild()
		}
	case quotasSavedMsg:
		if m.err != nil {
			return shared.StatusCmd(m.err.Error(), true)
		}
		s.dirty = false
		return shared.StatusCmd("saved budget and quotas to curate.toml", false)
	case tea.KeyMsg:
		return s.key(m)
	}
	return nil
}

// discard goes back to the config on disk.
func (s *Model) discard() {
	s.quotas = selection.MergeQuotas(s.profile.Quotas, s.overrides.Quotas)
	s.savedBudget = s.overrides.Budget
	s.budget = 0
	if b := s.overrides.Budget; b != nil {
		s.budget = *b
	} else if b := s.profile.Budget; b != nil {
		s.budget = *b
	}
	s.dirty = false
	s.rebuild()
}

// rebuild makes a new solver (the catalogue or its labels changed).
func (s *Model) rebuild() {
	cfg := s.profile
	cfg.Quotas = s.quotas
	cfg.Budget = nil
	if s.budget > 0 {
		b := s.budget
		cfg.Budget = &b
	}
	var before []string
	if s.res != nil {
		before = s.res.IDs()
	}
	sol, err := selection.NewSolver(s.ctx.Catalog.Tasks, cfg)
	if err != nil {
		s.solver, s.err = nil, err.Error()
		s.res = nil
		s.ctx.Solve = nil
		return
	}
	s.solver = sol
	s.budget = sol.Budget()
	s.solve()
	s.entered, s.left = nil, nil
	if before != nil && s.res != nil {
		s.entered, s.left = diffIDs(before, s.res.IDs())
	}
}

// diffIDs is what entered and left between two sets.
func diffIDs(a, b []string) (entered, left []string) {
	in := map[string]bool{}
	for _, id := range a {
		in[id] = true
	}
	now := map[string]bool{}
	for _, id := range b {
		now[id] = true
		if !in[id] {
			entered = append(entered, id)
		}
	}
	for _, id := range a {
		if !now[id] {
			left = append(left, id)
		}
	}
	sort.Strings(entered)
	sort.Strings(left)
	return entered, left
}

// solve re-solves and redraws the rows.
func (s *Model) solve() {
	res, err := s.solver.Solve()
	if err != nil {
		s.err = err.Error()
		return
	}
	s.err = ""
	s.res = res
	s.ctx.Solve = &shared.Solve{Result: res, Config: s.solver.Config()}
	s.entered, s.left = res.Entered, res.Left
	s.layout()
}

// layout computes the rows: the budget, every value of the bar dimensions
// among eligible tasks, then quotas on other dimensions.
func (s *Model) layout() {
	have := map[string]map[string]int{}
	elig := map[string]map[string]int{}
	for _, d := range selection.Dimensions {
		have[d], elig[d] = map[string]int{}, map[string]int{}
	}
	for _, t := range s.ctx.Catalog.Tasks {
		if selection.Eligible(t) {
			for _, d := range barDims {
				elig[d][selection.Value(t, d)]++
			}
		}
	}
	for _, p := range s.res.Picks {
		for _, d := range selection.Dimensions {
			have[d][selection.Value(p.Task, d)]++
		}
	}
	qi := map[string]int{}
	for i, q := range s.quotas {
		if _, ok := qi[q.Dimension+"\x00"+q.Value]; !ok {
			qi[q.Dimension+"\x00"+q.Value] = i
		}
	}
	rows := []quotaRow{{quota: -1, have: len(s.res.Picks)}}
	used := map[int]bool{}
	for _, d := range barDims {
		vals := make([]string, 0, len(elig[d]))
		for v := range elig[d] {
			vals = append(vals, v)
		}
		for _, q := range s.quotas {
			if q.Dimension == d && elig[d][q.Value] == 0 {
				vals = append(vals, q.Value)
			}
		}
		sort.Strings(vals)
		for _, v := range vals {
			i, ok := qi[d+"\x00"+v]
			if !ok {
				i = -1
			} else {
				used[i] = true
			}
			rows = append(rows, quotaRow{dim: d, value: v, quota: i, have: have[d][v], eligible: elig[d][v]})
		}
	}
	for i, q := range s.quotas {
		if !used[i] {
			rows = append(rows, quotaRow{dim: q.Dimension, value: q.Value, quota: i, have: have[q.Dimension][q.Value]})
		}
	}
	s.rows = rows
	s.list.MoveTo(s.list.Cursor, len(rows), s.listRows())
}

func (s *Model) listRows() int { return max(s.h-6, 3) }

func (s *Model) key(m tea.KeyMsg) tea.Cmd {
	k := s.ctx.Keys
	if s.typing {
		switch m.Type {
		case tea.KeyEnter:
			s.typing = false
			s.input.Blur()
			return s.typed(s.input.Value())
		case tea.KeyEsc:
			s.typing = false
			s.input.Blur()
			return shared.Consumed
		}
		var cmd tea.Cmd
		s.input, cmd = s.input.Update(m)
		return cmd
	}
	if s.solver == nil {
		return nil
	}
	switch {
	case k.Is(m, "up"):
		s.move(-1)
	case k.Is(m, "down"):
		s.move(1)
	case k.Is(m, "page_up"):
		s.move(-s.listRows())
	case k.Is(m, "page_down"):
		s.move(s.listRows())
	case k.Is(m, "top"):
		s.move(-len(s.rows))
	case k.Is(m, "bottom"):
		s.move(len(s.rows))
	case k.Is(m, "next_field"):
		s.field = (s.field + 1) % fieldCount
	case k.Is(m, "prev_field"):
		s.field = (s.field + fieldCount - 1) % fieldCount
	case k.Is(m, "remove_quota"):
		return s.remove()
	case k.Is(m, "nudge_up"):
		return s.nudge(1)
	case k.Is(m, "nudge_down"):
		return s.nudge(-1)
	case k.Is(m, "type_value"):
		s.typing = true
		s.input.SetValue("")
		s.input.Focus()
	case k.Is(m, "save_quotas"):
		return s.save()
	case k.Is(m, "discard_quotas"):
		s.discard()
		return shared.StatusCmd("discarded: back to curate.toml and the profile", false)
	}
	return nil
}

func (s *Model) move(d int) { s.list.MoveBy(d, len(s.rows), s.listRows()) }

// field pointer of a quota for the current column.
func quotaField(q *pipeline.Quota, f int) **int {
	return []**int{&q.Min, &q.Target, &q.Max}[f]
}

// nudge changes the value under the cursor by d and re-solves.
func (s *Model) nudge(d int) tea.Cmd {
	r := s.rows[s.list.Cursor]
	if r.dim == "" {
		return s.setBudget(s.budget + d)
	}
	if r.value == "" {
		return shared.StatusCmd("tasks without a "+r.dim+" cannot carry a quota", true)
	}
	q := pipeline.Quota{Dimension: r.dim, Value: r.value}
	if r.quota >= 0 {
		q = s.quotas[r.quota]
	}
	if isShareField(s.field) {
		return s.nudgeShare(r, q, d)
	}
	p := quotaField(&q, s.field)
	v := d
	if *p != nil {
		v = **p + d
	} else if d > 0 {
		v = r.have + d // a new bound starts next to what is selected
		if s.field == 2 {
			v = r.have
		}
	} else {
		v = max(r.have-1, 0)
	}
	if v < 0 {
		v = 0
	}
	*p = &v
	return s.setQuota(r, q)
}

// typed sets the value under the cursor; empty clears it.
func (s *Model) typed(text string) tea.Cmd {
	r := s.rows[s.list.Cursor]
	if r.dim != "" && isShareField(s.field) {
		if r.value == "" {
			return shared.StatusCmd("tasks without a "+r.dim+" cannot carry a quota", true)
		}
		v, err := parseShare(text)
		if err != nil {
			return shared.StatusCmd(err.Error(), true)
		}
		q := pipeline.Quota{Dimension: r.dim, Value: r.value}
		if r.quota >= 0 {
			q = s.quotas[r.quota]
		}
		*shareField(&q, s.field) = v
		return s.setQuota(r, q)
	}
	var v *int
	if text != "" {
		n, err := strconv.Atoi(text)
		if err != nil || n < 0 {
			return shared.StatusCmd(fmt.Sprintf("%q is not a count", text), true)
		}
		v = &n
	}
	if r.dim != "" && r.value == "" {
		return shared.StatusCmd("tasks without a "+r.dim+" cannot carry a quota", true)
	}
	if r.dim == "" {
		if v == nil {
			return shared.StatusCmd("the budget needs a number", true)
		}
		return s.setBudget(*v)
	}
	q := pipeline.Quota{Dimension: r.dim, Value: r.value}
	if r.quota >= 0 {
		q = s.quotas[r.quota]
	}
	*quotaField(&q, s.field) = v
	return s.setQuota(r, q)
}

func (s *Model) setBudget(n int) tea.Cmd {
	if err := s.solver.SetBudget(n); err != nil {
		return shared.StatusCmd(err.Error(), true)
	}
	s.budget, s.dirty = n, true
	s.solve()
	return nil
}

func (s *Model) setQuota(r quotaRow, q pipeline.Quota) tea.Cmd {
	qs := append([]pipeline.Quota(nil), s.quotas...)
	empty := q.Min == nil && q.Max == nil && q.Target == nil && q.MinShare == nil && q.MaxShare == nil
	switch {
	case r.quota >= 0 && empty:
		qs = append(qs[:r.quota], qs[r.quota+1:]...)
	case r.quota >= 0:
		qs[r.quota] = q
	case empty:
		return nil
	default:
		qs = append(qs, q)
	}
	if err := s.solver.SetQuotas(qs); err != nil {
		return shared.StatusCmd(err.Error(), true)
	}
	s.quotas, s.dirty = qs, true
	s.solve()
	return nil
}

// save writes the budget and the quotas that differ from the profile's.
func (s *Model) save() tea.Cmd {
	if s.svc.SaveSelection == nil {
		return shared.StatusCmd("no workspace: nothing to save to", true)
	}
	var over []pipeline.Quota
	for _, q := range s.quotas {
		if !hasQuota(s.profile.Quotas, q) {
			over = append(over, q)
		}
	}
	over = append(over, s.removedProfileQuotas()...)
	var budget *int
	if s.savedBudget != nil || s.profile.Budget == nil || *s.profile.Budget != s.budget {
		b := s.budget
		budget = &b
	}
	save := s.svc.SaveSelection
	return s.ctx.Job(func() tea.Msg { return quotasSavedMsg{save(budget, over)} })
}

func hasQuota(qs []pipeline.Quota, q pipeline.Quota) bool {
	for _, x := range qs {
		if selection.QuotaLabel(x) == selection.QuotaLabel(q) && eqInt(x.Min, q.Min) && eqInt(x.Max, q.Max) && eqInt(x.Target, q.Target) &&
			eqFloat(x.MinShare, q.MinShare) && eqFloat(x.MaxShare, q.MaxShare) {
			return true
		}
	}
	return false
}

func eqFloat(a, b *float64) bool { return (a == nil && b == nil) || (a != nil && b != nil && *a == *b) }

func eqInt(a, b *int) bool { return (a == nil && b == nil) || (a != nil && b != nil && *a == *b) }

// ensure loads the config once (on the first visit, or when the Export
// screen needs a solve).
func (s *Model) ensure() tea.Cmd {
	if s.loaded {
		return nil
	}
	s.loaded = true
	return s.loadCmd()
}

// Unsaved names budget and quota edits not saved to curate.toml.
func (s *Model) Unsaved() string {
	if !s.dirty {
		return ""
	}
	return "budget and quota edits on the Quotas screen, not saved to curate.toml"
}

// SaveUnsaved saves them as S does.
func (s *Model) SaveUnsaved() tea.Cmd { return s.save() }
