// Package selection chooses a set of tasks under a budget, per-benchmark
// strategies and quotas.
package selection

// Config is the profile's [selection] section: budget, per-benchmark
// strategies and quotas. Owned by the selection stage (issue 6).
type Config struct{}
