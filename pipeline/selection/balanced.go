package selection

import (
	"fmt"
	"strings"

	"curate/pipeline"
)

// balanced takes tasks one at a time: the first candidate (in the sort
// order) whose values on the Balance dimensions were taken least so far,
// so no language, phase or difficulty crowds out the others while the
// sort order still decides among equals.
func balanced(b Benchmark, sorted []*pipeline.Task, take int, keys []sortKey) []pick {
	counts := make([]map[string]int, len(b.Balance))
	for i := range counts {
		counts[i] = map[string]int{}
	}
	used := make([]bool, len(sorted))
	var picks []pick
	for len(picks) < take {
		best, bestLoad := -1, 0
		for i, t := range sorted {
			if used[i] {
				continue
			}
			load := 0
			for d, dim := range b.Balance {
				load += counts[d][Value(t, dim)]
			}
			if best < 0 || load < bestLoad {
				best, bestLoad = i, load
			}
			if load == 0 {
				break // nothing beats a task whose values are all new
			}
		}
		if best < 0 {
			break
		}
		used[best] = true
		t := sorted[best]
		values := make([]string, len(b.Balance))
		for d, dim := range b.Balance {
			v := Value(t, dim)
			counts[d][v]++
			values[d] = dim + "=" + v
		}
		picks = append(picks, pick{t, fmt.Sprintf("balanced: %s taken least so far, then %s",
			strings.Join(values, ", "), describeSort(keys))})
	}
	return picks
}
