package selection

import (
	"fmt"
	"strconv"
	"strings"

	"curate/pipeline"
)

// ParseQuota reads the command-line form of a quota,
// "DIMENSION=VALUE:BOUND=N[,BOUND=N...]" with BOUND one of min, max,
// target (counts) or min_share, max_share (fractions of the budget):
//
//	language=go:min=3,max=10
//	sdlc_phase=Documentation:max_share=0.05
func ParseQuota(s string) (pipeline.Quota, error) {
	var q pipeline.Quota
	colon := strings.LastIndex(s, ":")
	if colon < 0 {
		return q, fmt.Errorf("quota %q: want DIMENSION=VALUE:min=N,max=N (e.g. language=go:min=3)", s)
	}
	head, bounds := s[:colon], s[colon+1:]
	dim, value, ok := strings.Cut(head, "=")
	if !ok {
		return q, fmt.Errorf("quota %q: want DIMENSION=VALUE before the colon", s)
	}
	q.Dimension, q.Value = strings.TrimSpace(dim), strings.TrimSpace(value)
	given := map[string]bool{}
	for _, part := range strings.Split(bounds, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return q, fmt.Errorf("quota %q: bound %q: want NAME=NUMBER", s, part)
		}
		k = strings.TrimSpace(k)
		if given[k] {
			return q, fmt.Errorf("quota %q: %s is given twice; keep one", s, k)
		}
		given[k] = true
		switch k {
		case "min", "max", "target":
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				return q, fmt.Errorf("quota %q: %s %q is not a whole number", s, k, v)
			}
			p := map[string]**int{"min": &q.Min, "max": &q.Max, "target": &q.Target}[k]
			*p = &n
		case "min_share", "max_share":
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil {
				return q, fmt.Errorf("quota %q: %s %q is not a number", s, k, v)
			}
			p := map[string]**float64{"min_share": &q.MinShare, "max_share": &q.MaxShare}[k]
			*p = &f
		default:
			return q, fmt.Errorf("quota %q: unknown bound %q (want min, max, target, min_share or max_share)", s, k)
		}
	}
	if err := ValidateQuota(q); err != nil {
		return q, fmt.Errorf("quota %q: %w", s, err)
	}
	return q, nil
}
