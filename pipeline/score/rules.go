package score

import (
	"fmt"
	"math"
	"strings"

	"curate/pipeline"
)

// matcher is a compiled Match.
type matcher struct {
	name       string
	benchmarks map[string]bool
	categories map[string]bool
	has        []string
	when       []cond
}

func compileMatch(m Match, fallback string) (matcher, error) {
	c := matcher{name: m.Name, has: m.Has}
	if len(m.Benchmark) > 0 {
		c.benchmarks = map[string]bool{}
		for _, b := range m.Benchmark {
			c.benchmarks[strings.ToLower(b)] = true
		}
	}
	if len(m.Category) > 0 {
		c.categories = map[string]bool{}
		for _, x := range m.Category {
			c.categories[strings.ToLower(x)] = true
		}
	}
	for _, w := range m.When {
		cd, err := parseCond(w)
		if err != nil {
			return c, err
		}
		c.when = append(c.when, cd)
	}
	if c.name == "" {
		c.name = describeMatch(m, fallback)
	}
	return c, nil
}

// describeMatch names an unnamed rule after what it matches, e.g.
// "tac/find-in-codebase" or "pytorch files_changed>=110".
func describeMatch(m Match, fallback string) string {
	var parts []string
	head := strings.Join(m.Benchmark, ",")
	if len(m.Category) > 0 {
		if head != "" {
			head += "/"
		}
		head += strings.Join(m.Category, ",")
	}
	if head != "" {
		parts = append(parts, head)
	}
	for _, h := range m.Has {
		parts = append(parts, "has "+h)
	}
	for _, w := range m.When {
		parts = append(parts, strings.ReplaceAll(w, " ", ""))
	}
	if len(parts) == 0 {
		return fallback
	}
	return strings.Join(parts, " ")
}

// in is what a rule is matched against, prepared once per task.
type in struct {
	benchmark string // lower case, prefixes stripped
	category  string // lower case
	features  pipeline.Features
}

func (m *matcher) matches(x *in) bool {
	if m.benchmarks != nil && !m.benchmarks[x.benchmark] {
		return false
	}
	if m.categories != nil && !m.categories[x.category] {
		return false
	}
	for _, h := range m.has {
		if _, ok := x.features.Values[h]; !ok {
			return false
		}
	}
	for _, c := range m.when {
		if !c.holds(x.features) {
			return false
		}
	}
	return true
}

// component is a compiled ComponentRule.
type component struct {
	matcher
	constant    bool
	value       float64
	feature     string
	base, scale float64
	div, lo, hi float64
}

func compileComponent(section string, i int, r ComponentRule) (component, error) {
	m, err := compileMatch(r.Match, "default")
	c := component{matcher: m, base: r.Base, scale: 1, div: 1, lo: math.Inf(-1), hi: math.Inf(1)}
	where := fmt.Sprintf("score.%s[%d] (%s)", section, i+1, m.name)
	if err != nil {
		return c, fmt.Errorf("%s: %w", where, err)
	}
	switch {
	case r.Value != nil && r.Feature != "":
		return c, fmt.Errorf("%s: give value or feature, not both", where)
	case r.Value != nil:
		c.constant, c.value = true, *r.Value
	case r.Feature != "":
		if !validName(r.Feature) {
			return c, fmt.Errorf("%s: %q is not a feature name", where, r.Feature)
		}
		c.feature = r.Feature
		if r.Scale != nil {
			c.scale = *r.Scale
		}
		if r.Div != nil {
			if *r.Div == 0 {
				return c, fmt.Errorf("%s: div must not be 0", where)
			}
			c.div = *r.Div
		}
		if r.Min != nil {
			c.lo = *r.Min
		}
		if r.Max != nil {
			c.hi = *r.Max
		}
		if c.lo > c.hi {
			return c, fmt.Errorf("%s: min %g is above max %g", where, c.lo, c.hi)
		}
	default:
		return c, fmt.Errorf("%s: give value = N or feature = NAME", where)
	}
	return c, nil
}

// eval returns the component's value and whether the rule applies.
func (c *component) eval(x *in) (float64, bool) {
	if !c.matches(x) {
		return 0, false
	}
	if c.constant {
		return c.value, true
	}
	f, ok := x.features.Values[c.feature]
	if !ok {
		return 0, false
	}
	return c.base + c.scale*math.Min(math.Max(f/c.div, c.lo), c.hi), true
}
