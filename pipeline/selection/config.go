// Package selection chooses a set of tasks under a budget, per-benchmark
// strategies and quotas.
package selection

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"curate/pipeline"
	"curate/pipeline/query"
)

// Config is the profile's [selection] section: budget, per-benchmark
// strategies and quotas. Owned by the selection stage (issue 6).
type Config struct {
	// Title heads the manifest and the methodology report.
	Title string `toml:"title" json:"title,omitempty"`
	// Budget is the total number of tasks; nil means the sum of the takes.
	Budget *int `toml:"budget" json:"budget,omitempty"`
	// RandomSeed is recorded in the manifest (the solver is deterministic).
	RandomSeed int `toml:"random_seed" json:"random_seed"`
	// Order lists benchmarks in report order; unlisted ones follow by name.
	Order      []string             `toml:"order" json:"order,omitempty"`
	Benchmarks map[string]Benchmark `toml:"benchmarks" json:"benchmarks,omitempty"`
	Quotas     []pipeline.Quota     `toml:"quotas" json:"quotas,omitempty"`
	// DifficultySource is the difficulty a "difficulty" sort key ranks by:
	// "imported" (what the source benchmark assigned; seed 000 selects
	// before calibration relabels) or "effective" (curator label, else
	// calibrated, else imported; the default when empty).
	DifficultySource string `toml:"difficulty_source" json:"difficulty_source,omitempty"`
}

// Difficulty sources a Config may name.
const (
	DifficultyImported  = "imported"
	DifficultyEffective = "effective"
)

// Benchmark is one benchmark's take and strategy.
type Benchmark struct {
	// Take is a count or "all".
	Take any `toml:"take" json:"take,omitempty"`
	// Strategy: all, priority, proportional, per_value or top.
	Strategy string `toml:"strategy" json:"strategy"`
	// Key is the dimension the strategy groups by (priority, proportional,
	// per_value): sdlc_phase, language, benchmark, difficulty, repo, category.
	Key string `toml:"key" json:"key,omitempty"`
	// Order is priority's order of Key values, first taken first.
	Order []string `toml:"order" json:"order,omitempty"`
	// MinPerGroup is proportional's minimum per group.
	MinPerGroup int `toml:"min_per_group" json:"min_per_group,omitempty"`
	// PerValue and Values: per_value takes PerValue tasks for each of Values
	// (all values when empty); Diverse prefers distinct values of that key.
	PerValue int      `toml:"per_value" json:"per_value,omitempty"`
	Values   []string `toml:"values" json:"values,omitempty"`
	Diverse  string   `toml:"diverse" json:"diverse,omitempty"`
	// Balance lists the dimensions the balanced strategy spreads the take
	// over (language, sdlc_phase, difficulty...).
	Balance []string `toml:"balance" json:"balance,omitempty"`
	// Sort is the within-group order: score, difficulty, id or any feature
	// name (files_changed, loc_changed, code_ratio...); "-" for descending.
	// Ties always break by score (descending), then id.
	Sort []string `toml:"sort" json:"sort,omitempty"`
	// Where restricts the benchmark's candidates (a `--filter` expression).
	Where string  `toml:"where" json:"where,omitempty"`
	TopUp []TopUp `toml:"top_up" json:"top_up,omitempty"`
	// Description is the one-line strategy of the coverage table; Title and
	// Notes head and explain it in the report's strategies section.
	Description string `toml:"description" json:"description,omitempty"`
	Title       string `toml:"title" json:"title,omitempty"`
	Notes       string `toml:"notes" json:"notes,omitempty"`
}

// TopUp swaps tasks within a benchmark until at least Min tasks have each
// of Values on Key (swebenchpro's ">= 3 each of Go, TypeScript, JavaScript").
type TopUp struct {
	Key    string   `toml:"key" json:"key"`
	Values []string `toml:"values" json:"values"`
	Min    int      `toml:"min" json:"min"`
}

// Strategies the solver knows.
var Strategies = []string{"all", "priority", "proportional", "per_value", "top", "balanced"}

// Dimensions a quota or a strategy key may name.
var Dimensions = []string{"sdlc_phase", "language", "benchmark", "difficulty", "repo", "category"}

// Value is the task's value on a dimension (curator labels win).
func Value(t *pipeline.Task, dim string) string {
	switch dim {
	case "sdlc_phase":
		return t.Phase()
	case "language":
		return t.Language
	case "benchmark":
		return t.Benchmark
	case "difficulty":
		return string(t.EffectiveDifficulty())
	case "repo":
		return t.Repo
	case "category":
		return t.EffectiveCategory()
	}
	return ""
}

func validDimension(d string) bool {
	for _, x := range Dimensions {
		if x == d {
			return true
		}
	}
	return false
}

// take returns the benchmark's count, or all=true.
func (b Benchmark) take() (n int, all bool, err error) {
	switch v := b.Take.(type) {
	case nil:
		if b.Strategy == "all" {
			return 0, true, nil
		}
		if b.Strategy == "per_value" && b.PerValue > 0 && len(b.Values) > 0 {
			return b.PerValue * len(b.Values), false, nil
		}
		return 0, false, fmt.Errorf("take is missing (a count or \"all\")")
	case string:
		if strings.EqualFold(v, "all") {
			return 0, true, nil
		}
		return 0, false, fmt.Errorf("take %q: want a count or \"all\"", v)
	case int64:
		n = int(v)
	case int:
		n = v
	case float64: // from a JSON round trip
		if v != math.Trunc(v) {
			return 0, false, fmt.Errorf("take %v: want a whole number", v)
		}
		n = int(v)
	default:
		return 0, false, fmt.Errorf("take %v: want a count or \"all\"", v)
	}
	if n < 0 {
		return 0, false, fmt.Errorf("take %d: must not be negative", n)
	}
	return n, false, nil
}

// BenchmarkNames lists configured benchmarks in report order.
func (c *Config) BenchmarkNames() []string {
	seen := map[string]bool{}
	var out []string
	for _, b := range c.Order {
		if _, ok := c.Benchmarks[b]; ok && !seen[b] {
			out = append(out, b)
			seen[b] = true
		}
	}
	var rest []string
	for b := range c.Benchmarks {
		if !seen[b] {
			rest = append(rest, b)
		}
	}
	sort.Strings(rest)
	return append(out, rest...)
}

// Validate checks the config; errors name the benchmark or quota.
func (c *Config) Validate() error {
	if c.Budget != nil && *c.Budget < 1 {
		return fmt.Errorf("selection budget %d: must be at least 1", *c.Budget)
	}
	switch c.DifficultySource {
	case "", DifficultyImported, DifficultyEffective:
	default:
		return fmt.Errorf("selection difficulty_source %q: want %q or %q", c.DifficultySource, DifficultyImported, DifficultyEffective)
	}
	for _, name := range c.BenchmarkNames() {
		if err := c.Benchmarks[name].validate(); err != nil {
			return fmt.Errorf("selection benchmark %s: %w", name, err)
		}
	}
	for i, q := range c.Quotas {
		if err := ValidateQuota(q); err != nil {
			return fmt.Errorf("selection quota %d (%s): %w", i+1, QuotaLabel(q), err)
		}
	}
	return nil
}

func (b Benchmark) validate() error {
	if _, _, err := b.take(); err != nil {
		return err
	}
	known := false
	for _, s := range Strategies {
		known = known || s == b.Strategy
	}
	if !known {
		return fmt.Errorf("strategy %q: want one of %s", b.Strategy, strings.Join(Strategies, ", "))
	}
	switch b.Strategy {
	case "priority", "proportional", "per_value":
		if !validDimension(b.Key) {
			return fmt.Errorf("strategy %s: key %q: want one of %s", b.Strategy, b.Key, strings.Join(Dimensions, ", "))
		}
	}
	if b.Strategy == "balanced" && len(b.Balance) == 0 {
		return fmt.Errorf("strategy balanced: balance is empty (want dimensions from %s)", strings.Join(Dimensions, ", "))
	}
	for _, d := range b.Balance {
		if !validDimension(d) {
			return fmt.Errorf("balance %q: want one of %s", d, strings.Join(Dimensions, ", "))
		}
	}
	if b.Strategy == "priority" && len(b.Order) == 0 {
		return fmt.Errorf("strategy priority: order is empty")
	}
	if b.Strategy == "per_value" && b.PerValue < 1 {
		return fmt.Errorf("strategy per_value: per_value %d: must be at least 1", b.PerValue)
	}
	if b.MinPerGroup < 0 {
		return fmt.Errorf("min_per_group %d: must not be negative", b.MinPerGroup)
	}
	if b.Diverse != "" && !validDimension(b.Diverse) {
		return fmt.Errorf("diverse %q: want one of %s", b.Diverse, strings.Join(Dimensions, ", "))
	}
	if _, err := parseSort(b.Sort); err != nil {
		return err
	}
	if _, err := query.Parse(b.Where); err != nil {
		return fmt.Errorf("where: %w", err)
	}
	for _, u := range b.TopUp {
		if !validDimension(u.Key) {
			return fmt.Errorf("top_up key %q: want one of %s", u.Key, strings.Join(Dimensions, ", "))
		}
		if u.Min < 0 {
			return fmt.Errorf("top_up %s min %d: must not be negative", u.Key, u.Min)
		}
	}
	return nil
}

// ValidateQuota rejects an unknown dimension, negative bounds, shares
// outside [0,1] and a min above a max.
func ValidateQuota(q pipeline.Quota) error {
	if !validDimension(q.Dimension) {
		return fmt.Errorf("unknown dimension %q (want one of %s)", q.Dimension, strings.Join(Dimensions, ", "))
	}
	if q.Value == "" {
		return fmt.Errorf("value is empty")
	}
	bounded := q.Min != nil || q.Max != nil || q.Target != nil || q.MinShare != nil || q.MaxShare != nil
	if q.Remove {
		if bounded {
			return fmt.Errorf("remove = true drops the profile's quota; it cannot carry bounds")
		}
		return nil
	}
	for name, p := range map[string]*int{"min": q.Min, "max": q.Max, "target": q.Target} {
		if p != nil && *p < 0 {
			return fmt.Errorf("%s %d: must not be negative", name, *p)
		}
	}
	for name, p := range map[string]*float64{"min_share": q.MinShare, "max_share": q.MaxShare} {
		if p != nil && (*p < 0 || *p > 1 || math.IsNaN(*p)) {
			return fmt.Errorf("%s %v: must be between 0 and 1", name, *p)
		}
	}
	if q.Min != nil && q.Max != nil && *q.Min > *q.Max {
		return fmt.Errorf("min %d is above max %d", *q.Min, *q.Max)
	}
	if q.MinShare != nil && q.MaxShare != nil && *q.MinShare > *q.MaxShare {
		return fmt.Errorf("min_share %v is above max_share %v", *q.MinShare, *q.MaxShare)
	}
	if q.Target != nil && (q.Min != nil || q.Max != nil) {
		return fmt.Errorf("target cannot be combined with min or max")
	}
	if !bounded {
		return fmt.Errorf("no bound: set min, max, target, min_share or max_share (or remove = true to drop the profile's quota)")
	}
	return nil
}

// QuotaLabel names a quota in messages: "language=go min 3 max 10".
func QuotaLabel(q pipeline.Quota) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s=%s", q.Dimension, q.Value)
	if q.Remove {
		b.WriteString(" removed")
	}
	if q.Target != nil {
		fmt.Fprintf(&b, " target %d", *q.Target)
	}
	if q.Min != nil {
		fmt.Fprintf(&b, " min %d", *q.Min)
	}
	if q.Max != nil {
		fmt.Fprintf(&b, " max %d", *q.Max)
	}
	if q.MinShare != nil {
		fmt.Fprintf(&b, " min_share %g", *q.MinShare)
	}
	if q.MaxShare != nil {
		fmt.Fprintf(&b, " max_share %g", *q.MaxShare)
	}
	return b.String()
}

// Bounds is the count range a quota allows for a budget: lo <= n <= hi.
func Bounds(q pipeline.Quota, budget int) (lo, hi int) { return bounds(q, budget) }

// bounds turns a quota into count bounds for a budget: lo <= n <= hi.
func bounds(q pipeline.Quota, budget int) (lo, hi int) {
	lo, hi = 0, math.MaxInt
	if q.Target != nil {
		lo, hi = *q.Target, *q.Target
	}
	if q.Min != nil && *q.Min > lo {
		lo = *q.Min
	}
	if q.Max != nil && *q.Max < hi {
		hi = *q.Max
	}
	if q.MinShare != nil {
		if v := int(math.Ceil(*q.MinShare*float64(budget) - 1e-9)); v > lo {
			lo = v
		}
	}
	if q.MaxShare != nil {
		if v := int(math.Floor(*q.MaxShare*float64(budget) + 1e-9)); v < hi {
			hi = v
		}
	}
	return lo, hi
}

// Descriptions maps each configured benchmark to its one-line strategy
// (the description, else the strategy's name) for coverage tables.
func (c *Config) Descriptions() map[string]string {
	out := map[string]string{}
	for name, b := range c.Benchmarks {
		out[name] = b.Description
		if b.Description == "" {
			out[name] = b.Strategy
		}
	}
	return out
}
