// Package score extracts features, computes the MCP benefit score, the
// SDLC phase and the calibrated difficulty from a profile's rules.
package score

// Config is the profile's [score] section: SDLC phase map, weights,
// category weights, component rules, difficulty rules, language overrides.
// Owned by the import/score stage (issue 3).
type Config struct{}
