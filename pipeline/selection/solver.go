package selection

import (
	"fmt"
	"sort"

	"curate/pipeline"
	"curate/pipeline/query"
)

// Pick is a selected task with the rule that chose it.
type Pick struct {
	Task      *pipeline.Task
	Rationale string
}

// Violation is a quota the solver could not meet.
type Violation struct {
	Quota   pipeline.Quota `json:"quota"`
	Label   string         `json:"label"`
	Have    int            `json:"have"`
	Min     int            `json:"min"`
	Max     int            `json:"max,omitempty"`
	Short   int            `json:"short"` // below min by
	Over    int            `json:"over"`  // above max by
	Message string         `json:"message"`
}

// Shortfall is a benchmark that had fewer candidates than its take.
type Shortfall struct {
	Benchmark string `json:"benchmark"`
	Take      int    `json:"take"`
	Available int    `json:"available"`
	Short     int    `json:"short"`
}

// Result is one solve: the chosen tasks in order and how good they are.
type Result struct {
	Picks      []Pick      `json:"-"`
	Budget     int         `json:"budget"`
	Feasible   bool        `json:"feasible"`
	Violations []Violation `json:"violations,omitempty"`
	// Quotas reports every quota in config order (count, bounds, met).
	Quotas     []QuotaStatus `json:"quotas,omitempty"`
	Shortfalls []Shortfall   `json:"shortfalls,omitempty"`
	TotalScore float64       `json:"total_score"`
	UpperBound float64       `json:"upper_bound"`
	Gap        float64       `json:"gap"`
	// Entered and Left are task ids that changed since the previous solve
	// of the same Solver (both empty on the first solve).
	Entered []string `json:"entered,omitempty"`
	Left    []string `json:"left,omitempty"`
}

// IDs lists the selected task ids in pick order.
func (r *Result) IDs() []string {
	out := make([]string, len(r.Picks))
	for i, p := range r.Picks {
		out[i] = p.Task.ID
	}
	return out
}

// Solver holds a catalogue prepared for repeated solves: candidates sorted
// by score per dimension value, and the strategies' base selection per
// budget, so that changing one quota only re-runs the quota repair. A
// Solver is not safe for concurrent use; the workbench owns one.
type Solver struct {
	cfg      Config
	eligible []*pipeline.Task // not excluded, sorted by score desc, id
	pos      map[*pipeline.Task]int
	pinned   []*pipeline.Task
	index    map[string]map[string][]*pipeline.Task // dim -> value -> tasks (score desc, id)
	budget   int

	sorted   [][]*pipeline.Task // per configured benchmark, in its sort order
	base     []Pick             // strategies' picks for the current budget
	baseFor  int
	baseErr  error
	shortage []Shortfall
	// the previous solve's set, by position in eligible, for Entered/Left
	last, now []bool
	lastPicks []*pipeline.Task
}

// Eligible reports whether a task may be selected: not excluded by the
// curator, not rejected by a filter, not failed validation.
func Eligible(t *pipeline.Task) bool {
	return !t.Labels.Excluded && t.Status != pipeline.StatusRejected && t.Status != pipeline.StatusInvalid
}

// NewSolver validates cfg and indexes tasks.
func NewSolver(tasks []*pipeline.Task, cfg Config) (*Solver, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	s := &Solver{cfg: cfg, pos: map[*pipeline.Task]int{}, index: map[string]map[string][]*pipeline.Task{}}
	for _, t := range tasks {
		if Eligible(t) {
			s.eligible = append(s.eligible, t)
		}
	}
	sort.Slice(s.eligible, func(i, j int) bool { return better(s.eligible[i], s.eligible[j]) })
	for i, t := range s.eligible {
		s.pos[t] = i
		if t.Labels.Pinned {
			s.pinned = append(s.pinned, t)
		}
	}
	for _, d := range Dimensions {
		m := map[string][]*pipeline.Task{}
		for _, t := range s.eligible {
			v := Value(t, d)
			m[v] = append(m[v], t)
		}
		s.index[d] = m
	}
	s.budget = s.defaultBudget()
	if cfg.Budget != nil {
		if err := s.SetBudget(*cfg.Budget); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Config returns the solver's current config (quotas and budget included).
func (s *Solver) Config() Config {
	c := s.cfg
	b := s.budget
	c.Budget = &b
	c.Quotas = append([]pipeline.Quota(nil), s.cfg.Quotas...)
	return c
}

// Budget is the current total budget.
func (s *Solver) Budget() int { return s.budget }

// SetBudget changes the total budget; the next Solve re-runs strategies.
func (s *Solver) SetBudget(n int) error {
	if n < 1 {
		return fmt.Errorf("budget %d: must be at least 1", n)
	}
	if n > len(s.eligible) {
		return fmt.Errorf("budget %d is larger than the catalogue's %d eligible tasks", n, len(s.eligible))
	}
	if n < len(s.pinned) {
		return fmt.Errorf("budget %d is below the %d pinned tasks (unpin some or raise the budget)", n, len(s.pinned))
	}
	s.budget = n
	return nil
}

// SetQuotas replaces every quota; cheap: strategies are not re-run.
func (s *Solver) SetQuotas(qs []pipeline.Quota) error {
	for i, q := range qs {
		if err := ValidateQuota(q); err != nil {
			return fmt.Errorf("quota %d (%s): %w", i+1, QuotaLabel(q), err)
		}
	}
	s.cfg.Quotas = append([]pipeline.Quota(nil), qs...)
	return nil
}

// SetQuota replaces quota i, or appends it when i == len(quotas).
func (s *Solver) SetQuota(i int, q pipeline.Quota) error {
	if err := ValidateQuota(q); err != nil {
		return fmt.Errorf("quota %s: %w", QuotaLabel(q), err)
	}
	switch {
	case i == len(s.cfg.Quotas):
		s.cfg.Quotas = append(s.cfg.Quotas, q)
	case i >= 0 && i < len(s.cfg.Quotas):
		qs := append([]pipeline.Quota(nil), s.cfg.Quotas...)
		qs[i] = q
		s.cfg.Quotas = qs
	default:
		return fmt.Errorf("quota index %d out of range (have %d)", i, len(s.cfg.Quotas))
	}
	return nil
}

func (s *Solver) defaultBudget() int {
	total := len(s.pinned)
	pinnedIn := s.pinnedPerBenchmark()
	cands, _ := s.candidates() // where clauses were checked by Validate
	for i, name := range s.cfg.BenchmarkNames() {
		n, all, _ := s.cfg.Benchmarks[name].take()
		avail := len(cands[i]) + pinnedIn[name]
		if all || n > avail {
			n = avail
		}
		total += max(n-pinnedIn[name], 0)
	}
	if total > len(s.eligible) {
		total = len(s.eligible)
	}
	if total == 0 {
		total = min(1, len(s.eligible))
	}
	return total
}

func (s *Solver) pinnedPerBenchmark() map[string]int {
	m := map[string]int{}
	for _, t := range s.pinned {
		m[t.Benchmark]++
	}
	return m
}

// Solve chooses the set for the current budget and quotas.
func (s *Solver) Solve() (*Result, error) {
	if len(s.eligible) == 0 {
		return nil, fmt.Errorf("no eligible tasks to select from")
	}
	if s.base == nil || s.baseFor != s.budget {
		s.base, s.shortage, s.baseErr = s.strategies()
		s.baseFor = s.budget
	}
	if s.baseErr != nil {
		return nil, s.baseErr
	}
	picks, violations, status := s.repair(s.base)
	r := &Result{Picks: picks, Budget: s.budget, Feasible: len(violations) == 0, Violations: violations, Quotas: status, Shortfalls: s.shortage}
	for _, p := range picks {
		r.TotalScore += p.Task.Score
	}
	r.UpperBound = s.upperBound()
	r.TotalScore, r.UpperBound = round4(r.TotalScore), round4(r.UpperBound)
	r.Gap = round4(r.UpperBound - r.TotalScore)
	s.diff(r)
	return r, nil
}

// diff fills r.Entered and r.Left against the previous solve, using flags
// indexed by task position (no per-solve maps: a set may hold thousands).
func (s *Solver) diff(r *Result) {
	if s.now == nil {
		s.now = make([]bool, len(s.eligible))
	}
	for _, p := range r.Picks {
		i := s.pos[p.Task]
		s.now[i] = true
		if s.last != nil && !s.last[i] {
			r.Entered = append(r.Entered, p.Task.ID)
		}
	}
	if s.last != nil {
		for _, t := range s.lastPicks {
			if !s.now[s.pos[t]] {
				r.Left = append(r.Left, t.ID)
			}
			s.last[s.pos[t]] = false // clear for reuse as the next "now"
		}
	} else {
		s.last = make([]bool, len(s.eligible))
	}
	sort.Strings(r.Entered)
	sort.Strings(r.Left)
	s.last, s.now = s.now, s.last
	s.lastPicks = s.lastPicks[:0]
	for _, p := range r.Picks {
		s.lastPicks = append(s.lastPicks, p.Task)
	}
}

func round4(x float64) float64 {
	if x < 0 {
		return -round4(-x)
	}
	return float64(int64(x*1e4+0.5)) / 1e4
}

// upperBound is the best total any set of budget tasks could reach with
// the pins forced in: a relaxation that ignores strategies and quotas.
func (s *Solver) upperBound() float64 {
	sum := 0.0
	n := 0
	for _, t := range s.pinned {
		sum += t.Score
		n++
	}
	for _, t := range s.eligible {
		if n >= s.budget {
			break
		}
		if !t.Labels.Pinned {
			sum += t.Score
			n++
		}
	}
	return sum
}

// strategies runs every benchmark's strategy with takes scaled to the
// budget, then fills any rest of the budget by score.
func (s *Solver) strategies() ([]Pick, []Shortfall, error) {
	var picks []Pick
	in := map[*pipeline.Task]bool{}
	for _, t := range s.pinned {
		picks = append(picks, Pick{t, "pinned by the curator"})
		in[t] = true
	}
	names := s.cfg.BenchmarkNames()
	pinnedIn := s.pinnedPerBenchmark()
	takes := make([]int, len(names))
	alls := make([]bool, len(names))
	cands, err := s.candidates()
	if err != nil {
		return nil, nil, err
	}
	var shortfalls []Shortfall
	sum := 0
	for i, name := range names {
		b := s.cfg.Benchmarks[name]
		n, all, _ := b.take()
		if all {
			n = len(cands[i]) + pinnedIn[name]
		}
		if n > len(cands[i])+pinnedIn[name] {
			shortfalls = append(shortfalls, Shortfall{Benchmark: name, Take: n, Available: len(cands[i]) + pinnedIn[name], Short: n - len(cands[i]) - pinnedIn[name]})
			n = len(cands[i]) + pinnedIn[name]
		}
		takes[i] = max(n-pinnedIn[name], 0)
		alls[i] = all
		sum += takes[i]
	}
	room := s.budget - len(s.pinned)
	if sum > room {
		// "all" benchmarks keep every task while the counted takes can
		// absorb the cut; only then are they scaled too.
		allSum := 0
		counted := make([]int, len(takes))
		for i := range takes {
			if alls[i] {
				allSum += takes[i]
			} else {
				counted[i] = takes[i]
			}
		}
		if allSum <= room {
			scaleTakes(counted, room-allSum)
			for i := range takes {
				if !alls[i] {
					takes[i] = counted[i]
				}
			}
		} else {
			scaleTakes(takes, room)
		}
	}
	for i, name := range names {
		all := alls[i] && takes[i] == len(cands[i])
		for _, p := range runStrategy(name, s.cfg.Benchmarks[name], cands[i], takes[i], all) {
			if !in[p.t] {
				in[p.t] = true
				picks = append(picks, Pick{p.t, p.why})
			}
		}
	}
	for _, t := range s.eligible {
		if len(picks) >= s.budget {
			break
		}
		if !in[t] {
			in[t] = true
			picks = append(picks, Pick{t, "budget fill: highest score among the tasks no strategy took"})
		}
	}
	return picks, shortfalls, nil
}

// candidates are each configured benchmark's selectable tasks in its sort
// order, computed once: a budget change then re-runs only the strategies.
func (s *Solver) candidates() ([][]*pipeline.Task, error) {
	if s.sorted != nil {
		return s.sorted, nil
	}
	names := s.cfg.BenchmarkNames()
	out := make([][]*pipeline.Task, len(names))
	for i, name := range names {
		b := s.cfg.Benchmarks[name]
		q, err := query.Parse(b.Where)
		if err != nil {
			return nil, fmt.Errorf("selection benchmark %s: where: %w", name, err)
		}
		for _, t := range s.index["benchmark"][name] {
			if !t.Labels.Pinned && q.Match(t) {
				out[i] = append(out[i], t)
			}
		}
		keys, _ := parseSort(b.Sort)
		for j := range keys {
			if keys[j].name == "difficulty" && s.cfg.DifficultySource == DifficultyImported {
				keys[j].name = "difficulty_imported"
			}
		}
		sortTasks(out[i], keys)
	}
	s.sorted = out
	return out, nil
}

// scaleTakes shrinks takes to sum to room: floor of the proportional
// share, then the remainder one at a time to the largest takes.
func scaleTakes(takes []int, room int) {
	sum := 0
	for _, t := range takes {
		sum += t
	}
	if sum == 0 {
		return
	}
	orig := append([]int(nil), takes...)
	given := 0
	for i := range takes {
		takes[i] = orig[i] * room / sum
		given += takes[i]
	}
	order := make([]int, len(takes))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return orig[order[a]] > orig[order[b]] })
	for given < room {
		progressed := false
		for _, i := range order {
			if given == room {
				break
			}
			if takes[i] < orig[i] {
				takes[i]++
				given++
				progressed = true
			}
		}
		if !progressed {
			return
		}
	}
}
