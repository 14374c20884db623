package ciconfig

import (
	"curate/pipeline/envgen"
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// combo is one matrix entry: key → value (as text).
type combo map[string]string

// maxCombos caps a matrix's expansion (a product of long lists).
const maxCombos = 512

// expand lists a GitHub Actions strategy.matrix's entries: the product of
// its list-valued keys, include entries merged into the entries they do
// not contradict (or added), exclude entries removed.
func expand(matrix any) []combo {
	m, ok := matrix.(map[string]any)
	if !ok {
		return []combo{{}}
	}
	out := []combo{{}}
	var base []string
	for _, k := range sortedKeys(m) {
		if k == "include" || k == "exclude" {
			continue
		}
		vals, ok := m[k].([]any)
		if !ok {
			continue // an expression (fromJSON): unknown here
		}
		base = append(base, k)
		var next []combo
		for _, c := range out {
			for _, v := range vals {
				if len(next) >= maxCombos {
					break
				}
				n := clone(c)
				n[k] = text(v)
				next = append(next, n)
			}
		}
		if len(next) > 0 {
			out = next
		}
	}
	if ex, ok := m["exclude"].([]any); ok {
		for _, e := range ex {
			em := toCombo(e)
			kept := out[:0]
			for _, c := range out {
				if !matches(c, em) {
					kept = append(kept, c)
				}
			}
			out = kept
		}
	}
	if inc, ok := m["include"].([]any); ok {
		for _, e := range inc {
			im := toCombo(e)
			merged := false
			for _, c := range out {
				if len(base) > 0 && agrees(c, im, base) {
					for k, v := range im {
						c[k] = v
					}
					merged = true
				}
			}
			if !merged && len(out) < maxCombos {
				out = append(out, im)
			}
		}
	}
	if len(out) == 0 {
		out = []combo{{}}
	}
	return out
}

// agrees reports whether include entry im can extend c: it changes none
// of the matrix's own keys.
func agrees(c, im combo, base []string) bool {
	for _, k := range base {
		if v, ok := im[k]; ok && c[k] != v {
			return false
		}
	}
	return true
}

func matches(c, pattern combo) bool {
	for k, v := range pattern {
		if c[k] != v {
			return false
		}
	}
	return len(pattern) > 0
}

func clone(c combo) combo {
	n := make(combo, len(c)+1)
	for k, v := range c {
		n[k] = v
	}
	return n
}

func toCombo(v any) combo {
	c := combo{}
	if m, ok := v.(map[string]any); ok {
		for k, x := range m {
			c[k] = text(x)
		}
	}
	return c
}

// text is a YAML scalar as text; 3.10 stays "3.10" only when quoted,
// as in the workflow itself (an unquoted 3.10 is the number 3.1).
func text(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case map[string]any, []any:
		return ""
	default:
		return fmt.Sprint(x)
	}
}

// choose picks the entry with the most common value of each key (ties:
// the newest version, as the revision's code must build on it; else the
// first listed), key by key, keys whose values are versions first, so an
// extra key an include adds to one entry does not outvote the versions.
func choose(combos []combo) combo {
	if len(combos) == 0 {
		return combo{}
	}
	set := map[string]bool{}
	for _, c := range combos {
		for k := range c {
			set[k] = true
		}
	}
	keys := sortedKeys(set)
	sort.SliceStable(keys, func(a, b int) bool { return versionKey(combos, keys[a]) && !versionKey(combos, keys[b]) })
	for _, k := range keys {
		counts := map[string]int{}
		var order []string
		for _, c := range combos {
			v := c[k] // an entry without the key counts as ""
			if counts[v] == 0 {
				order = append(order, v)
			}
			counts[v]++
		}
		top := order[0]
		for _, v := range order[1:] {
			if counts[v] > counts[top] || counts[v] == counts[top] && newer(v, top) {
				top = v
			}
		}
		var kept []combo
		for _, c := range combos {
			if c[k] == top {
				kept = append(kept, c)
			}
		}
		combos = kept
	}
	return combos[0]
}

// versionKey reports whether every entry's value of k reads as a version.
func versionKey(combos []combo, k string) bool {
	for _, c := range combos {
		if _, n := envgen.ParseVersion(c[k]); n == 0 {
			return false
		}
	}
	return true
}

var exprRe = regexp.MustCompile(`\$\{\{\s*([^}]*?)\s*\}\}`)

// substitute replaces ${{ matrix.key }} with the entry's value; other
// expressions (secrets, env, inputs) become "".
func substitute(s string, c combo) string {
	if !strings.Contains(s, "${{") {
		return s
	}
	return exprRe.ReplaceAllStringFunc(s, func(e string) string {
		inner := strings.TrimSpace(exprRe.FindStringSubmatch(e)[1])
		if k, ok := strings.CutPrefix(inner, "matrix."); ok {
			return c[k]
		}
		return ""
	})
}

// newer reports whether a reads as a higher version than b ("24" > "8",
// "3.13" > "3.9"); text that is no version is never newer.
func newer(a, b string) bool {
	va, na := envgen.ParseVersion(a)
	vb, nb := envgen.ParseVersion(b)
	if na == 0 || nb == 0 {
		return false
	}
	return vb.Less(va)
}
