package selection

import (
	"fmt"
	"sort"
	"strings"

	"curate/pipeline"
)

// pick is a chosen task and the rule that chose it.
type pick struct {
	t   *pipeline.Task
	why string
}

// runStrategy picks up to take tasks (all of them when all) of one
// benchmark's candidates, already in the benchmark's sort order.
// Candidates exclude pinned and excluded tasks.
func runStrategy(bench string, b Benchmark, sorted []*pipeline.Task, take int, all bool) []pick {
	keys, _ := parseSort(b.Sort)
	if all {
		take = len(sorted)
	}
	if take > len(sorted) {
		take = len(sorted)
	}
	if take == 0 {
		return nil
	}
	var picks []pick
	switch b.Strategy {
	case "all":
		for _, t := range sorted[:take] {
			why := fmt.Sprintf("all: every task of %s", bench)
			if !all {
				why = fmt.Sprintf("all: first %d of %s by %s", take, bench, describeSort(keys))
			}
			picks = append(picks, pick{t, why})
		}
	case "top":
		for i, t := range sorted[:take] {
			picks = append(picks, pick{t, fmt.Sprintf("top: #%d of %s by %s", i+1, bench, describeSort(keys))})
		}
	case "priority":
		picks = priority(b, sorted, take, keys)
	case "proportional":
		picks = proportional(b, sorted, take, keys)
	case "per_value":
		picks = perValue(b, sorted, take, keys)
	case "balanced":
		picks = balanced(b, sorted, take, keys)
	}
	if len(b.TopUp) > 0 {
		picks = topUp(bench, b, sorted, picks)
	}
	return picks
}

// priority takes groups of Key in Order, each by the within-group order;
// values not in Order come last.
func priority(b Benchmark, sorted []*pipeline.Task, take int, keys []sortKey) []pick {
	rank := map[string]int{}
	for i, v := range b.Order {
		if _, ok := rank[v]; !ok {
			rank[v] = i
		}
	}
	r := func(t *pipeline.Task) int {
		if i, ok := rank[Value(t, b.Key)]; ok {
			return i
		}
		return len(b.Order)
	}
	order := append([]*pipeline.Task(nil), sorted...)
	sort.SliceStable(order, func(i, j int) bool { return r(order[i]) < r(order[j]) })
	var picks []pick
	for _, t := range order[:take] {
		pos := r(t) + 1
		picks = append(picks, pick{t, fmt.Sprintf("priority: %s=%s (priority %d of %d), then %s",
			b.Key, Value(t, b.Key), pos, len(b.Order), describeSort(keys))})
	}
	return picks
}

type group struct {
	value string
	tasks []*pipeline.Task // within-group order
	alloc int
}

// groupBy splits sorted tasks by key, keeping each group's order; groups
// come largest first, then by value.
func groupBy(sorted []*pipeline.Task, key string) []*group {
	idx := map[string]*group{}
	var gs []*group
	for _, t := range sorted {
		v := Value(t, key)
		g := idx[v]
		if g == nil {
			g = &group{value: v}
			idx[v] = g
			gs = append(gs, g)
		}
		g.tasks = append(g.tasks, t)
	}
	sort.SliceStable(gs, func(i, j int) bool {
		if len(gs[i].tasks) != len(gs[j].tasks) {
			return len(gs[i].tasks) > len(gs[j].tasks)
		}
		return gs[i].value < gs[j].value
	})
	return gs
}

// proportional gives each group its minimum, then the rest of take in
// proportion to group size (floor), then the remainder one at a time from
// the largest groups.
func proportional(b Benchmark, sorted []*pipeline.Task, take int, keys []sortKey) []pick {
	gs := groupBy(sorted, b.Key)
	rest := take
	for _, g := range gs {
		g.alloc = min(b.MinPerGroup, len(g.tasks), rest)
		rest -= g.alloc
	}
	if rest > 0 {
		n := len(sorted)
		given := 0
		for _, g := range gs {
			add := min(rest*len(g.tasks)/n, len(g.tasks)-g.alloc)
			g.alloc += add
			given += add
		}
		rest -= given
		for rest > 0 {
			progressed := false
			for _, g := range gs {
				if rest == 0 {
					break
				}
				if g.alloc < len(g.tasks) {
					g.alloc++
					rest--
					progressed = true
				}
			}
			if !progressed {
				break
			}
		}
	}
	var picks []pick
	for _, g := range gs {
		for _, t := range g.tasks[:g.alloc] {
			picks = append(picks, pick{t, fmt.Sprintf("proportional by %s: %s gets %d of %d (min %d), within it %s",
				b.Key, g.value, g.alloc, take, b.MinPerGroup, describeSort(keys))})
		}
	}
	return picks
}

// perValue takes PerValue tasks for each value of Key (Values, or every
// value largest group first), preferring unseen values of Diverse.
func perValue(b Benchmark, sorted []*pipeline.Task, take int, keys []sortKey) []pick {
	gs := groupBy(sorted, b.Key)
	byValue := map[string]*group{}
	for _, g := range gs {
		byValue[g.value] = g
	}
	values := b.Values
	if len(values) == 0 {
		for _, g := range gs {
			values = append(values, g.value)
		}
	}
	var picks []pick
	for _, v := range values {
		g := byValue[v]
		if g == nil {
			continue
		}
		chosen := map[*pipeline.Task]bool{}
		seen := map[string]bool{}
		var got []*pipeline.Task
		if b.Diverse != "" {
			for _, t := range g.tasks {
				if len(got) == b.PerValue {
					break
				}
				if d := Value(t, b.Diverse); !seen[d] {
					seen[d] = true
					chosen[t] = true
					got = append(got, t)
				}
			}
		}
		for _, t := range g.tasks {
			if len(got) == b.PerValue {
				break
			}
			if !chosen[t] {
				chosen[t] = true
				got = append(got, t)
			}
		}
		div := ""
		if b.Diverse != "" {
			div = ", distinct " + b.Diverse + " first"
		}
		for _, t := range got {
			picks = append(picks, pick{t, fmt.Sprintf("per value: %d for %s=%s%s, by %s", b.PerValue, b.Key, v, div, describeSort(keys))})
		}
	}
	if len(picks) > take {
		picks = picks[:take]
	}
	return picks
}

// topUp swaps picks until every top-up value reaches its minimum. The task
// that leaves is the last pick of the most represented value of the
// strategy key whose leaving breaks no other top-up or group minimum.
func topUp(bench string, b Benchmark, sorted []*pipeline.Task, picks []pick) []pick {
	in := map[*pipeline.Task]bool{}
	for _, p := range picks {
		in[p.t] = true
	}
	for _, u := range b.TopUp {
		for _, v := range u.Values {
			for count(picks, u.Key, v) < u.Min {
				var add *pipeline.Task
				for _, t := range sorted {
					if !in[t] && Value(t, u.Key) == v {
						add = t
						break
					}
				}
				if add == nil {
					break // too few such tasks: the shortfall stays visible in stats
				}
				victim := topUpVictim(b, picks)
				if victim < 0 {
					break
				}
				delete(in, picks[victim].t)
				picks = append(picks[:victim], picks[victim+1:]...)
				in[add] = true
				picks = append(picks, pick{add, fmt.Sprintf("top-up: %s=%s had fewer than %d in %s", u.Key, v, u.Min, bench)})
			}
		}
	}
	return picks
}

func count(picks []pick, key, value string) int {
	n := 0
	for _, p := range picks {
		if Value(p.t, key) == value {
			n++
		}
	}
	return n
}

func topUpVictim(b Benchmark, picks []pick) int {
	protected := func(t *pipeline.Task) bool {
		for _, u := range b.TopUp {
			for _, v := range u.Values {
				if Value(t, u.Key) == v && count(picks, u.Key, v) <= u.Min {
					return true
				}
			}
		}
		return false
	}
	groupKey := b.Key
	if groupKey == "" {
		groupKey = "benchmark"
	}
	sizes := map[string]int{}
	for _, p := range picks {
		sizes[Value(p.t, groupKey)]++
	}
	best := -1
	for i := len(picks) - 1; i >= 0; i-- {
		t := picks[i].t
		if strings.HasPrefix(picks[i].why, "top-up:") || protected(t) {
			continue
		}
		g := Value(t, groupKey)
		if sizes[g] <= b.MinPerGroup {
			continue
		}
		if best < 0 || sizes[g] > sizes[Value(picks[best].t, groupKey)] {
			best = i
		}
	}
	return best
}
