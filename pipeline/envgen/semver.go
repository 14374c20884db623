package envgen

import (
	"regexp"
	"strconv"
	"strings"
)

// SemVer is a major.minor.patch triple; missing parts are 0.
type SemVer [3]int

func (a SemVer) Less(b SemVer) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

var versionRe = regexp.MustCompile(`^v?(\d+)(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?`)

// ParseVersion reads "1", "1.2", "v1.2.3", "1.x"; n is how many parts were
// numbers (an "x" ends the count), 0 when s is not a version.
func ParseVersion(s string) (v SemVer, n int) {
	m := versionRe.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return v, 0
	}
	for i := 1; i <= 3; i++ {
		x, err := strconv.Atoi(m[i])
		if err != nil {
			break
		}
		v[i-1] = x
		n++
	}
	return v, n
}

// interval is [lo, hi) over versions; hi zero means unbounded.
type interval struct {
	lo, hi SemVer
	open   bool // hi is unbounded
}

// RangeAllowsMajor reports whether some version with the given major
// satisfies an npm-style semver range (">=18", "^18.18 || >=20",
// "18.x", "16 - 20", "*"). An unreadable range allows everything: the
// range is advice here, and the tests decide.
func RangeAllowsMajor(rng string, major int) bool {
	rng = strings.TrimSpace(rng)
	if rng == "" || rng == "*" || rng == "x" || rng == "latest" {
		return true
	}
	want := interval{lo: SemVer{major, 0, 0}, hi: SemVer{major + 1, 0, 0}}
	for _, alt := range strings.Split(rng, "||") {
		iv, ok := parseComparators(alt)
		if !ok {
			return true
		}
		if intersects(iv, want) {
			return true
		}
	}
	return false
}

func intersects(a, b interval) bool {
	lo := a.lo
	if lo.Less(b.lo) {
		lo = b.lo
	}
	hiA, hiB := a.hi, b.hi
	switch {
	case a.open && b.open:
		return true
	case a.open:
		return lo.Less(hiB)
	case b.open:
		return lo.Less(hiA)
	}
	hi := hiA
	if hiB.Less(hi) {
		hi = hiB
	}
	return lo.Less(hi)
}

var comparatorRe = regexp.MustCompile(`(>=|<=|>|<|=|\^|~)?\s*(v?[\dxX*][\w.*-]*)`)

// parseComparators turns one alternative ("> 1.2 <3", "^4.1", "1 - 2")
// into an interval.
func parseComparators(s string) (interval, bool) {
	s = strings.TrimSpace(s)
	iv := interval{open: true}
	if s == "" || s == "*" {
		return iv, true
	}
	if a, b, ok := strings.Cut(s, " - "); ok { // hyphen range
		lo, n := ParseVersion(a)
		hi, m := ParseVersion(b)
		if n == 0 || m == 0 {
			return iv, false
		}
		iv.lo = lo
		iv.hi, iv.open = upper(hi, m), false
		return iv, true
	}
	ms := comparatorRe.FindAllStringSubmatch(s, -1)
	if len(ms) == 0 {
		return iv, false
	}
	setLo := func(v SemVer) {
		if iv.lo.Less(v) {
			iv.lo = v
		}
	}
	setHi := func(v SemVer) {
		if iv.open || v.Less(iv.hi) {
			iv.hi, iv.open = v, false
		}
	}
	for _, m := range ms {
		v, n := ParseVersion(m[2])
		if n == 0 {
			if m[2] == "*" || strings.EqualFold(m[2], "x") {
				continue
			}
			return iv, false
		}
		switch m[1] {
		case ">=":
			setLo(v)
		case ">":
			setLo(upper(v, n))
		case "<":
			setHi(v)
		case "<=":
			setHi(upper(v, n))
		case "^":
			setLo(v)
			switch {
			case v[0] > 0 || n == 1:
				setHi(SemVer{v[0] + 1})
			case v[1] > 0 || n == 2:
				setHi(SemVer{0, v[1] + 1})
			default:
				setHi(SemVer{0, 0, v[2] + 1})
			}
		case "~":
			setLo(v)
			if n == 1 {
				setHi(SemVer{v[0] + 1})
			} else {
				setHi(SemVer{v[0], v[1] + 1})
			}
		default: // "=" or bare: an x-range
			setLo(v)
			setHi(upper(v, n))
		}
	}
	return iv, true
}

// upper is the first version after every version v stands for when only
// n parts were given: "18" -> 19.0.0, "18.2" -> 18.3.0, "18.2.1" -> 18.2.2.
func upper(v SemVer, n int) SemVer {
	switch n {
	case 1:
		return SemVer{v[0] + 1}
	case 2:
		return SemVer{v[0], v[1] + 1}
	}
	return SemVer{v[0], v[1], v[2] + 1}
}
