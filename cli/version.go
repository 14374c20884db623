package cli

import (
	"runtime/debug"
	"strings"
)

// version is the module version and the VCS revision the binary was built
// from, as the Go toolchain recorded them.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, modified, at string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = "+dirty"
			}
		case "vcs.time":
			at = s.Value
		}
	}
	parts := []string{v}
	if rev != "" {
		parts = append(parts, "revision "+rev[:min(12, len(rev))]+modified)
	}
	if at != "" {
		parts = append(parts, at)
	}
	return strings.Join(parts, ", ") + " (" + info.GoVersion + ")"
}
