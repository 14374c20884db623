package shared

// ShortPhase is an SDLC phase in at most 15 cells, still unique, for
// narrow columns.
func ShortPhase(p string) string {
	switch p {
	case "":
		return "-"
	case "Implementation (feature)":
		return "Impl (feature)"
	case "Implementation (bug fix)":
		return "Impl (bug fix)"
	case "Implementation (refactoring)":
		return "Impl (refactor)"
	case "Requirements & Discovery":
		return "Requirements"
	case "Architecture & Design":
		return "Architecture"
	}
	return p
}
