package pipeline

import (
	"fmt"
	"strings"
)

// Difficulty is a label from the ordered scale below ("" = unknown).
type Difficulty string

// Difficulties in rank order, easiest first.
var Difficulties = []Difficulty{"easy", "medium", "hard", "very_hard", "critical", "expert"}

// Rank is the position on the scale (1-based); 0 for unknown.
func (d Difficulty) Rank() int {
	for i, x := range Difficulties {
		if x == d {
			return i + 1
		}
	}
	return 0
}

// ParseDifficulty accepts a label in any case, with "-" or " " for "_", and
// SWE-bench Verified's time buckets.
func ParseDifficulty(s string) (Difficulty, error) {
	norm := strings.ToLower(strings.TrimSpace(s))
	switch norm {
	case "":
		return "", nil
	case "<15 min fix":
		return "easy", nil
	case "15 min - 1 hour":
		return "medium", nil
	case "1-4 hours":
		return "hard", nil
	case ">4 hours":
		return "very_hard", nil
	}
	norm = strings.NewReplacer("-", "_", " ", "_").Replace(norm)
	if norm == "veryhard" {
		norm = "very_hard"
	}
	for _, d := range Difficulties {
		if string(d) == norm {
			return d, nil
		}
	}
	return "", fmt.Errorf("invalid difficulty %q (want one of %s)", s, JoinDifficulties())
}

// JoinDifficulties lists the scale for messages.
func JoinDifficulties() string {
	parts := make([]string, len(Difficulties))
	for i, d := range Difficulties {
		parts[i] = string(d)
	}
	return strings.Join(parts, ", ")
}
