package envgen

import (
	"regexp"
	"strconv"
	"strings"
)

// DebianPython is the interpreter Debian 12 ships (python3).
const DebianPython = "3.11.2"

// requiresPython reads the project's requires-python (pyproject.toml,
// setup.cfg, setup.py) and where it came from.
func requiresPython(tree *Tree, pp map[string]any) (spec, from string) {
	if s, ok := tomlTable(pp, "project")["requires-python"].(string); ok && s != "" {
		return s, "pyproject.toml requires-python"
	}
	if s := iniValue(tree.Text("setup.cfg"), "options", "python_requires"); s != "" {
		return s, "setup.cfg python_requires"
	}
	if m := regexp.MustCompile(`python_requires\s*=\s*["']([^"']+)["']`).FindStringSubmatch(tree.Text("setup.py")); m != nil {
		return m[1], "setup.py python_requires"
	}
	return "", ""
}

var pySpecRe = regexp.MustCompile(`^\s*(~=|===|==|!=|<=|>=|<|>)\s*([0-9][0-9a-zA-Z.*+!-]*)\s*$`)

// pySatisfies reports whether version meets a PEP 440 specifier set
// ("">=3.8,<4"); a clause it cannot read is ignored (pip decides then).
func pySatisfies(version, spec string) bool {
	for _, clause := range strings.Split(spec, ",") {
		if strings.TrimSpace(clause) == "" {
			continue
		}
		m := pySpecRe.FindStringSubmatch(clause)
		if m == nil {
			continue
		}
		op, want := m[1], m[2]
		if strings.HasSuffix(want, ".*") {
			prefix := pyVersionParts(strings.TrimSuffix(want, ".*"))
			have := pyVersionParts(version)
			match := len(have) >= len(prefix)
			for i := 0; match && i < len(prefix); i++ {
				match = have[i] == prefix[i]
			}
			if (op == "==" && !match) || (op == "!=" && match) {
				return false
			}
			continue
		}
		c := pyCompare(version, want)
		ok := true
		switch op {
		case "==", "===":
			ok = c == 0
		case "!=":
			ok = c != 0
		case "<":
			ok = c < 0
		case "<=":
			ok = c <= 0
		case ">":
			ok = c > 0
		case ">=":
			ok = c >= 0
		case "~=":
			parts := pyVersionParts(want)
			upper := append([]int{}, parts[:max(1, len(parts)-1)]...)
			upper[len(upper)-1]++
			ok = c >= 0 && pyCompareParts(pyVersionParts(version), upper) < 0
		}
		if !ok {
			return false
		}
	}
	return true
}

var leadingDigits = regexp.MustCompile(`^\d+`)

// pyVersionParts is a release's numbers ("3.11.2" → 3 11 2); a
// pre-release suffix ends it ("3.12rc1" → 3 12).
func pyVersionParts(v string) []int {
	var out []int
	for _, p := range strings.Split(v, ".") {
		digits := leadingDigits.FindString(p)
		if digits == "" {
			break
		}
		n, _ := strconv.Atoi(digits)
		out = append(out, n)
		if len(digits) < len(p) {
			break
		}
	}
	return out
}

func pyCompare(a, b string) int { return pyCompareParts(pyVersionParts(a), pyVersionParts(b)) }

func pyCompareParts(a, b []int) int {
	for i := 0; i < len(a) || i < len(b); i++ {
		x, y := 0, 0
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}
