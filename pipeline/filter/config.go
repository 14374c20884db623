// Package filter decides which mined candidates become tasks; every
// rejection keeps all its reasons.
package filter

// Config is the profile's [filter] section: presets and their bounds, test
// file patterns. Owned by the mining stage (issue 4).
type Config struct{}
