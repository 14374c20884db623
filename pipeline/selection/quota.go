package selection

import (
	"fmt"
	"math"

	"curate/pipeline"
)

// maxFailedCandidates bounds the search for a swap partner so a quota that
// cannot be met costs little on a catalogue of 100,000 tasks.
const maxFailedCandidates = 64

// repair swaps tasks in and out of the strategies' picks until every quota
// holds, moving as few tasks as it can: each swap adds the best task the
// quota wants and removes the weakest task that no quota or pin needs,
// preferring one from the same benchmark so benchmark targets keep.
func (s *Solver) repair(base []Pick) ([]Pick, []Violation, []QuotaStatus) {
	qs := s.cfg.Quotas
	if len(qs) == 0 {
		return base, nil, nil
	}
	picks := append([]Pick(nil), base...)
	sel := make([]bool, len(s.eligible))
	for _, p := range picks {
		sel[s.pos[p.Task]] = true
	}
	lo := make([]int, len(qs))
	hi := make([]int, len(qs))
	counts := make([]int, len(qs))
	for i, q := range qs {
		lo[i], hi[i] = bounds(q, s.budget)
		for _, p := range picks {
			if matches(p.Task, q) {
				counts[i]++
			}
		}
	}
	// ok reports whether swapping out for in keeps every other quota from
	// getting worse.
	ok := func(in, out *pipeline.Task, skip int) bool {
		for j, q := range qs {
			if j == skip {
				continue
			}
			d := b2i(matches(in, q)) - b2i(matches(out, q))
			nc := counts[j] + d
			if (d < 0 && nc < lo[j]) || (d > 0 && nc > hi[j]) {
				return false
			}
		}
		return true
	}
	swap := func(slot int, in *pipeline.Task, why string) {
		out := picks[slot].Task
		sel[s.pos[out]] = false
		sel[s.pos[in]] = true
		for j, q := range qs {
			counts[j] += b2i(matches(in, q)) - b2i(matches(out, q))
		}
		picks[slot] = Pick{in, why}
	}
	// victim finds the weakest removable pick for in (same benchmark first).
	// Picks are in strategy order, so a later pick of a benchmark is one its
	// strategy valued less.
	victim := func(in *pipeline.Task, qi int, wantMatch bool) int {
		best, bestSame := -1, -1
		for k, p := range picks {
			t := p.Task
			if t.Labels.Pinned || matches(t, qs[qi]) != wantMatch || !ok(in, t, qi) {
				continue
			}
			// across benchmarks the lowest score leaves (the later pick on a
			// tie); within one, the strategy's own last pick leaves
			if best < 0 || t.Score <= picks[best].Task.Score {
				best = k
			}
			if t.Benchmark == in.Benchmark {
				bestSame = k
			}
		}
		if bestSame >= 0 {
			return bestSame
		}
		return best
	}
	for round := 0; round < 2*len(qs)+1; round++ {
		changed := false
		for i, q := range qs {
			label := QuotaLabel(q)
			failed := 0
			for _, c := range s.index[q.Dimension][q.Value] {
				if counts[i] >= lo[i] || counts[i] >= hi[i] || failed > maxFailedCandidates {
					break
				}
				if sel[s.pos[c]] {
					continue
				}
				v := victim(c, i, false)
				if v < 0 {
					failed++
					continue
				}
				swap(v, c, fmt.Sprintf("quota %s: added to meet its minimum (replaces %s)", label, picks[v].Task.ID))
				changed = true
			}
			for counts[i] > hi[i] {
				// the weakest matching pick leaves for the best non-matching task
				out := -1
				var in *pipeline.Task
				failed := 0
				for _, c := range s.eligible {
					if failed > maxFailedCandidates {
						break
					}
					if sel[s.pos[c]] || matches(c, q) {
						continue
					}
					if v := victim(c, i, true); v >= 0 {
						out, in = v, c
						break
					}
					failed++
				}
				if out < 0 {
					break
				}
				swap(out, in, fmt.Sprintf("quota %s: replaces %s to keep under its maximum", label, picks[out].Task.ID))
				changed = true
			}
		}
		if !changed {
			break
		}
	}
	var vs []Violation
	var status []QuotaStatus
	for i, q := range qs {
		st := QuotaStatus{Label: QuotaLabel(q), Have: counts[i], Min: lo[i], Max: -1, Available: len(s.index[q.Dimension][q.Value])}
		if hi[i] != math.MaxInt {
			st.Max = hi[i]
		}
		st.Met = counts[i] >= lo[i] && counts[i] <= hi[i]
		status = append(status, st)
	}
	for i, q := range qs {
		v := Violation{Quota: q, Label: QuotaLabel(q), Have: counts[i], Min: lo[i]}
		if hi[i] != math.MaxInt {
			v.Max = hi[i]
		}
		avail := len(s.index[q.Dimension][q.Value])
		switch {
		case counts[i] < lo[i] && avail < lo[i]:
			v.Short = lo[i] - counts[i]
			v.Message = fmt.Sprintf("quota %s cannot be met: only %d eligible tasks have %s=%s (short by %d)", v.Label, avail, q.Dimension, q.Value, lo[i]-avail)
		case counts[i] < lo[i] && lo[i] > s.budget:
			v.Short = lo[i] - counts[i]
			v.Message = fmt.Sprintf("quota %s cannot be met: it asks for %d of a budget of %d (short by %d)", v.Label, lo[i], s.budget, v.Short)
		case counts[i] < lo[i]:
			v.Short = lo[i] - counts[i]
			v.Message = fmt.Sprintf("quota %s cannot be met without breaking another quota or a pin: have %d, need %d (short by %d)", v.Label, counts[i], lo[i], v.Short)
		case counts[i] > hi[i]:
			v.Over = counts[i] - hi[i]
			v.Message = fmt.Sprintf("quota %s cannot be met: %d selected (pins or other quotas keep them), max %d (over by %d)", v.Label, counts[i], hi[i], v.Over)
		default:
			continue
		}
		vs = append(vs, v)
	}
	return picks, vs, status
}

// QuotaStatus is where one quota stands after a solve, for a live display.
type QuotaStatus struct {
	Label     string `json:"label"`
	Have      int    `json:"have"`
	Min       int    `json:"min"`
	Max       int    `json:"max"` // -1: no maximum
	Available int    `json:"available"`
	Met       bool   `json:"met"`
}

func matches(t *pipeline.Task, q pipeline.Quota) bool { return Value(t, q.Dimension) == q.Value }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
