package stats

import (
	"sort"

	"curate/pipeline"
)

// Timing is the machine time of task construction per repository and per
// language: wall and CPU seconds of each phase (pipeline.TimedPhases), and
// per valid task. `curate funnel --timing` prints it.
type Timing struct {
	Repos     []TimingRow `json:"repos"`
	Languages []TimingRow `json:"languages"`
	Total     TimingRow   `json:"total"`
}

// TimingRow is one repository's (or language's) machine time.
type TimingRow struct {
	Name   string        `json:"name"`
	Valid  int           `json:"valid"`
	Phases []PhaseTiming `json:"phases"` // in pipeline.TimedPhases order
	Total  PhaseTiming   `json:"total"`  // every phase
}

// PhaseTiming is one phase's machine time.
type PhaseTiming struct {
	Phase string `json:"phase"`
	// Pieces is how many recorded pieces of work (a mine, a build, a
	// run) it sums; 0 means nothing was recorded: unknown, not zero.
	Pieces int     `json:"pieces"`
	WallS  float64 `json:"wall_s"`
	// CPUS sums the pieces whose CPU was measured; CPUUnmeasured counts
	// the others, whose CPU is not in it.
	CPUS          float64 `json:"cpu_s"`
	CPUUnmeasured int     `json:"cpu_unmeasured"`
	// Per valid task; null with no valid task, or nothing to divide.
	WallPerValid *float64 `json:"wall_s_per_valid"`
	CPUPerValid  *float64 `json:"cpu_s_per_valid"`
}

// CPUKnown reports whether any piece of the phase had its CPU measured.
func (p *PhaseTiming) CPUKnown() bool { return p.Pieces > p.CPUUnmeasured }

// ComputeTiming sums the recorded machine times of the mined tasks (as
// ComputeFunnel takes them: one repository, or all for repo "") per
// repository, per language and in total. A time of a task counts with
// its task; a time of a repository alone (a mine, an environment check)
// counts when one of its tasks is taken, in the language most of them
// have.
func ComputeTiming(tasks []*pipeline.Task, runs []*pipeline.Run, times []pipeline.PhaseTime, repo string) *Timing {
	byTask := map[string][]*pipeline.Run{}
	for _, r := range runs {
		byTask[r.TaskID] = append(byTask[r.TaskID], r)
	}
	repos, langs := map[string]*TimingRow{}, map[string]*TimingRow{}
	total := newTimingRow("total")
	row := func(rows map[string]*TimingRow, name string) *TimingRow {
		if rows[name] == nil {
			rows[name] = newTimingRow(name)
		}
		return rows[name]
	}
	taken := map[string]*pipeline.Task{}
	langCount := map[string]map[string]int{}
	for _, t := range tasks {
		if !t.Mined() || (repo != "" && t.Repo != repo) {
			continue
		}
		taken[t.ID] = t
		lang := languageName(t.Language)
		if langCount[t.Repo] == nil {
			langCount[t.Repo] = map[string]int{}
		}
		langCount[t.Repo][lang]++
		r, l := row(repos, t.Repo), row(langs, lang)
		if validTask(t, byTask[t.ID]) {
			r.Valid++
			l.Valid++
			total.Valid++
		}
	}
	for _, p := range times {
		var repoName, lang string
		if p.TaskID != "" {
			t := taken[p.TaskID]
			if t == nil {
				continue
			}
			repoName, lang = t.Repo, languageName(t.Language)
		} else {
			if langCount[p.Repo] == nil {
				continue
			}
			repoName, lang = p.Repo, mostCommon(langCount[p.Repo])
		}
		for _, r := range []*TimingRow{row(repos, repoName), row(langs, lang), total} {
			r.add(p)
		}
	}
	out := &Timing{Repos: sortedRows(repos), Languages: sortedRows(langs), Total: *total}
	out.Total.finish()
	return out
}

func newTimingRow(name string) *TimingRow {
	r := &TimingRow{Name: name, Total: PhaseTiming{Phase: "total"}}
	for _, p := range pipeline.TimedPhases {
		r.Phases = append(r.Phases, PhaseTiming{Phase: p})
	}
	return r
}

func (r *TimingRow) add(p pipeline.PhaseTime) {
	for i := range r.Phases {
		if r.Phases[i].Phase == p.Phase {
			r.Phases[i].add(p)
			r.Total.add(p)
			return
		}
	}
}

func (p *PhaseTiming) add(t pipeline.PhaseTime) {
	p.Pieces++
	p.WallS += t.Wall.Seconds()
	if t.CPUMeasured {
		p.CPUS += t.CPU.Seconds()
	} else {
		p.CPUUnmeasured++
	}
}

// finish divides by the valid tasks.
func (r *TimingRow) finish() {
	for _, p := range append(pointers(r.Phases), &r.Total) {
		p.WallPerValid, p.CPUPerValid = nil, nil
		if r.Valid == 0 || p.Pieces == 0 {
			continue
		}
		wall := p.WallS / float64(r.Valid)
		p.WallPerValid = &wall
		if p.CPUKnown() {
			cpu := p.CPUS / float64(r.Valid)
			p.CPUPerValid = &cpu
		}
	}
}

func pointers(ps []PhaseTiming) []*PhaseTiming {
	out := make([]*PhaseTiming, len(ps))
	for i := range ps {
		out[i] = &ps[i]
	}
	return out
}

func sortedRows(rows map[string]*TimingRow) []TimingRow {
	out := make([]TimingRow, 0, len(rows))
	for _, r := range rows {
		r.finish()
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// languageName names a task's language in the tables ("" as "unknown").
func languageName(l string) string {
	if l == "" {
		return "unknown"
	}
	return l
}

// mostCommon is the key with the highest count, the first by name on a tie.
func mostCommon(counts map[string]int) string {
	best := ""
	for k, n := range counts {
		if best == "" || n > counts[best] || (n == counts[best] && k < best) {
			best = k
		}
	}
	return best
}
