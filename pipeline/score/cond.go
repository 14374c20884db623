package score

import (
	"fmt"
	"strconv"
	"strings"

	"curate/pipeline"
)

// cond is one parsed "feature op number" condition.
type cond struct {
	feature string
	op      string
	value   float64
}

var ops = []string{">=", "<=", "==", "!=", ">", "<"} // two-letter ops first

// parseCond reads "files_changed >= 4". Spaces around the operator are
// optional; the number may use _ or , as thousands separators or e-notation.
func parseCond(s string) (cond, error) {
	for _, op := range ops {
		i := strings.Index(s, op)
		if i < 0 {
			continue
		}
		name := strings.TrimSpace(s[:i])
		num := strings.TrimSpace(s[i+len(op):])
		if !validName(name) {
			return cond{}, fmt.Errorf("condition %q: %q is not a feature name", s, name)
		}
		v, err := strconv.ParseFloat(strings.NewReplacer("_", "", ",", "").Replace(num), 64)
		if err != nil {
			return cond{}, fmt.Errorf("condition %q: %q is not a number", s, num)
		}
		return cond{feature: name, op: op, value: v}, nil
	}
	return cond{}, fmt.Errorf("condition %q: want FEATURE OP NUMBER with OP one of %s", s, strings.Join(ops, " "))
}

func validName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r == '-' || r == '.' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

func (c cond) holds(f pipeline.Features) bool {
	v, ok := f.Values[c.feature]
	if !ok {
		return false
	}
	switch c.op {
	case ">=":
		return v >= c.value
	case "<=":
		return v <= c.value
	case "==":
		return v == c.value
	case "!=":
		return v != c.value
	case ">":
		return v > c.value
	default:
		return v < c.value
	}
}
