package pipeline

import (
	"fmt"
	"strings"
)

// SDLCPhases in lifecycle order, as seed 000 names them.
var SDLCPhases = []string{
	"Requirements & Discovery",
	"Architecture & Design",
	"Implementation (feature)",
	"Implementation (bug fix)",
	"Implementation (refactoring)",
	"Testing & QA",
	"Documentation",
	"Maintenance",
}

// phaseAliases lets a curator type a short name on the command line.
var phaseAliases = map[string]string{
	"requirements": SDLCPhases[0], "discovery": SDLCPhases[0],
	"architecture": SDLCPhases[1], "design": SDLCPhases[1],
	"feature": SDLCPhases[2], "bugfix": SDLCPhases[3], "bug": SDLCPhases[3], "bug fix": SDLCPhases[3],
	"refactoring": SDLCPhases[4], "refactor": SDLCPhases[4],
	"testing": SDLCPhases[5], "qa": SDLCPhases[5], "test": SDLCPhases[5],
	"documentation": SDLCPhases[6], "docs": SDLCPhases[6],
	"maintenance": SDLCPhases[7],
}

// ParsePhase accepts a phase's full name (any case) or a short alias.
func ParsePhase(s string) (string, error) {
	norm := strings.ToLower(strings.TrimSpace(s))
	for _, p := range SDLCPhases {
		if strings.ToLower(p) == norm {
			return p, nil
		}
	}
	if p, ok := phaseAliases[norm]; ok {
		return p, nil
	}
	return "", fmt.Errorf("invalid SDLC phase %q (want one of: %s; or requirements, architecture, feature, bugfix, refactoring, testing, docs, maintenance)", s, strings.Join(SDLCPhases, "; "))
}

// PhaseRank is the lifecycle position (1-based); 0 for unknown.
func PhaseRank(p string) int {
	for i, x := range SDLCPhases {
		if x == p {
			return i + 1
		}
	}
	return 0
}

// ShortPhase is an SDLC phase in at most 15 cells, still unique, for
// narrow columns: the one short name the list, the workbench and the
// quotas use.
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
