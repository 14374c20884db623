// Package stats computes the tables of a selection methodology report (seed
// 000): per SDLC phase, per benchmark, per language, score variation and
// difficulty distribution. `curate stats` and the report both use it, so
// their numbers agree.
package stats

import (
	"math"
	"sort"

	"curate/pipeline"
)

// Stats are the tables of one selection against its catalogue.
type Stats struct {
	TotalAvailable int            `json:"total_available"`
	TotalSelected  int            `json:"total_selected"`
	BenchmarkCount int            `json:"benchmark_count"`
	AvgScore       float64        `json:"avg_mcp_benefit_score"`
	Phases         []PhaseRow     `json:"sdlc_phases"`
	Benchmarks     []BenchmarkRow `json:"benchmarks"`
	Languages      []CountRow     `json:"languages"`
	Difficulties   []CountRow     `json:"difficulties"`
}

// PhaseRow is one SDLC phase: selected tasks and the benchmarks they come from.
type PhaseRow struct {
	Phase      string   `json:"phase"`
	Tasks      int      `json:"tasks"`
	Benchmarks []string `json:"benchmarks"`
}

// BenchmarkRow is one benchmark's coverage and score variation.
type BenchmarkRow struct {
	Benchmark string  `json:"benchmark"`
	Available int     `json:"available"`
	Selected  int     `json:"selected"`
	Strategy  string  `json:"strategy,omitempty"`
	ScoreMin  float64 `json:"score_min"`
	ScoreMax  float64 `json:"score_max"`
	ScoreMean float64 `json:"score_mean"`
	StdDev    float64 `json:"score_std_dev"`
}

// CountRow is a value and how many selected tasks have it.
type CountRow struct {
	Name    string  `json:"name"`
	Count   int     `json:"count"`
	Percent float64 `json:"percent"`
}

// Options order and annotate the tables.
type Options struct {
	// Order lists benchmarks first in this order; the rest follow by name.
	Order []string
	// Strategies maps a benchmark to its one-line strategy.
	Strategies map[string]string
}

// Compute builds the tables for selected (a subset of catalogue).
func Compute(catalogue, selected []*pipeline.Task, opt Options) *Stats {
	st := &Stats{TotalAvailable: len(catalogue), TotalSelected: len(selected)}
	avail := map[string]int{}
	for _, t := range catalogue {
		avail[t.Benchmark]++
	}
	bySel := map[string][]float64{}
	for _, t := range selected {
		bySel[t.Benchmark] = append(bySel[t.Benchmark], t.Score)
		if _, ok := avail[t.Benchmark]; !ok {
			avail[t.Benchmark] = 0 // selected from outside the catalogue given
		}
	}
	order := benchmarkOrder(avail, opt.Order)
	rank := map[string]int{}
	for i, b := range order {
		rank[b] = i
	}
	sum := 0.0
	for _, t := range selected {
		sum += t.Score
	}
	if len(selected) > 0 {
		st.AvgScore = Round(sum/float64(len(selected)), 4)
	}
	for _, b := range order {
		row := BenchmarkRow{Benchmark: b, Available: avail[b], Selected: len(bySel[b]), Strategy: opt.Strategies[b]}
		row.ScoreMin, row.ScoreMax, row.ScoreMean, row.StdDev = describe(bySel[b])
		st.Benchmarks = append(st.Benchmarks, row)
		if row.Selected > 0 {
			st.BenchmarkCount++
		}
	}
	phaseBench := map[string]map[string]bool{}
	phaseCount := map[string]int{}
	for _, t := range selected {
		p := t.Phase()
		if p == "" {
			p = "(unassigned)"
		}
		phaseCount[p]++
		if phaseBench[p] == nil {
			phaseBench[p] = map[string]bool{}
		}
		phaseBench[p][t.Benchmark] = true
	}
	phases := append([]string(nil), pipeline.SDLCPhases...)
	var extra []string
	for p := range phaseCount {
		if pipeline.PhaseRank(p) == 0 {
			extra = append(extra, p)
		}
	}
	sort.Strings(extra)
	for _, p := range append(phases, extra...) {
		if phaseCount[p] == 0 {
			continue
		}
		var bs []string
		for b := range phaseBench[p] {
			bs = append(bs, b)
		}
		sort.Slice(bs, func(i, j int) bool { return rank[bs[i]] < rank[bs[j]] })
		st.Phases = append(st.Phases, PhaseRow{Phase: p, Tasks: phaseCount[p], Benchmarks: bs})
	}
	langs := map[string]int{}
	diffs := map[string]int{}
	for _, t := range selected {
		l := t.Language
		if l == "" {
			l = "(unknown)"
		}
		langs[l]++
		d := string(t.EffectiveDifficulty())
		if d == "" {
			d = "(unknown)"
		}
		diffs[d]++
	}
	st.Languages = countRows(langs, len(selected))
	sort.SliceStable(st.Languages, func(i, j int) bool {
		a, b := st.Languages[i], st.Languages[j]
		if a.Count != b.Count {
			return a.Count > b.Count
		}
		return a.Name < b.Name
	})
	for _, d := range pipeline.Difficulties {
		if n := diffs[string(d)]; n > 0 {
			st.Difficulties = append(st.Difficulties, CountRow{Name: string(d), Count: n, Percent: percent(n, len(selected))})
			delete(diffs, string(d))
		}
	}
	rest := countRows(diffs, len(selected))
	sort.Slice(rest, func(i, j int) bool { return rest[i].Name < rest[j].Name })
	st.Difficulties = append(st.Difficulties, rest...)
	return st
}

func countRows(m map[string]int, total int) []CountRow {
	var out []CountRow
	for k, n := range m {
		out = append(out, CountRow{Name: k, Count: n, Percent: percent(n, total)})
	}
	return out
}

func percent(n, total int) float64 {
	if total == 0 {
		return 0
	}
	return Round(100*float64(n)/float64(total), 1)
}

func benchmarkOrder(avail map[string]int, order []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, b := range order {
		if _, ok := avail[b]; ok && !seen[b] {
			out = append(out, b)
			seen[b] = true
		}
	}
	var rest []string
	for b := range avail {
		if !seen[b] {
			rest = append(rest, b)
		}
	}
	sort.Strings(rest)
	return append(out, rest...)
}

// describe returns min, max, mean and population standard deviation,
// rounded to 4 places (zeros for no values).
func describe(xs []float64) (lo, hi, mean, sd float64) {
	if len(xs) == 0 {
		return 0, 0, 0, 0
	}
	lo, hi = xs[0], xs[0]
	sum := 0.0
	for _, x := range xs {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
		sum += x
	}
	mean = sum / float64(len(xs))
	v := 0.0
	for _, x := range xs {
		v += (x - mean) * (x - mean)
	}
	sd = math.Sqrt(v / float64(len(xs)))
	return Round(lo, 4), Round(hi, 4), Round(mean, 4), Round(sd, 4)
}

// Round rounds half away from zero to places decimals.
func Round(x float64, places int) float64 {
	p := math.Pow(10, float64(places))
	return math.Round(x*p) / p
}
