package workspace

import (
	"fmt"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"curate/internal/atomicfile"
	"curate/pipeline"
)

var tableHeader = regexp.MustCompile(`^\s*\[\[?\s*([A-Za-z0-9_."-]+)\s*\]\]?\s*(#.*)?$`)
var selectionKey = regexp.MustCompile(`^\s*(budget|quotas)\s*=`)
var quotedString = regexp.MustCompile(`"(\\.|[^"\\])*"|'[^']*'`)

// SaveSelection writes budget and quotas into the [selection] table of the
// curate.toml at path, leaving every other line (comments included) as it
// was. The result must load strictly and read back the same, else the
// file is not touched. A nil budget removes the key.
func SaveSelection(path string, budget *int, quotas []pipeline.Quota) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("save selection: %w", err)
	}
	out := rewriteSelection(string(data), budget, quotas)
	cfg, err := ParseConfig(path, []byte(out))
	if err != nil {
		return fmt.Errorf("save selection: the edited file would not load: %w", err)
	}
	if !reflect.DeepEqual(cfg.Selection.Budget, budget) || !sameQuotas(cfg.Selection.Quotas, quotas) {
		return fmt.Errorf("save selection: %s has [selection] keys this editor cannot rewrite (dotted keys?); edit it by hand", path)
	}
	perm := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		perm = fi.Mode().Perm()
	}
	if err := atomicfile.WriteFile(path, []byte(out), perm); err != nil {
		return fmt.Errorf("save selection: %w", err)
	}
	return nil
}

func sameQuotas(a, b []pipeline.Quota) bool {
	if len(a) == 0 && len(b) == 0 {
		return true
	}
	return reflect.DeepEqual(a, b)
}

// rewriteSelection drops [selection] budget/quotas (inline arrays may span
// lines) and [[selection.quotas]] tables, then writes the new keys right
// under the [selection] header (added at the end when there is none).
func rewriteSelection(text string, budget *int, quotas []pipeline.Quota) string {
	lines := strings.Split(text, "\n")
	var out []string
	table, skipping, depth := "", false, 0
	headerAt := -1
	for _, l := range lines {
		if depth > 0 { // inside a multi-line value being removed
			depth += brackets(l)
			continue
		}
		if m := tableHeader.FindStringSubmatch(l); m != nil && !strings.HasPrefix(strings.TrimSpace(l), "#") {
			table = m[1]
			skipping = table == "selection.quotas"
			if skipping {
				continue
			}
			out = append(out, l)
			if table == "selection" && headerAt < 0 {
				headerAt = len(out)
			}
			continue
		}
		if skipping {
			continue
		}
		if table == "selection" && selectionKey.MatchString(l) {
			depth = brackets(l)
			continue
		}
		out = append(out, l)
	}
	keys := selectionLines(budget, quotas)
	if headerAt < 0 {
		for len(out) > 0 && strings.TrimSpace(out[len(out)-1]) == "" {
			out = out[:len(out)-1]
		}
		out = append(out, "", "[selection]")
		out = append(out, keys...)
		return strings.Join(out, "\n") + "\n"
	}
	res := append([]string(nil), out[:headerAt]...)
	res = append(res, keys...)
	return strings.Join(append(res, out[headerAt:]...), "\n")
}

// brackets is the net [ ] depth of a line outside strings and comments.
func brackets(l string) int {
	l = quotedString.ReplaceAllString(l, `""`)
	if i := strings.Index(l, "#"); i >= 0 {
		l = l[:i]
	}
	return strings.Count(l, "[") - strings.Count(l, "]")
}

func selectionLines(budget *int, quotas []pipeline.Quota) []string {
	var out []string
	if budget != nil {
		out = append(out, fmt.Sprintf("budget = %d", *budget))
	}
	if len(quotas) == 0 {
		return out
	}
	out = append(out, "quotas = [")
	for _, q := range quotas {
		parts := []string{"dimension = " + tomlString(q.Dimension), "value = " + tomlString(q.Value)}
		for _, f := range []struct {
			k string
			v *int
		}{{"min", q.Min}, {"target", q.Target}, {"max", q.Max}} {
			if f.v != nil {
				parts = append(parts, fmt.Sprintf("%s = %d", f.k, *f.v))
			}
		}
		for _, f := range []struct {
			k string
			v *float64
		}{{"min_share", q.MinShare}, {"max_share", q.MaxShare}} {
			if f.v != nil {
				parts = append(parts, f.k+" = "+strconv.FormatFloat(*f.v, 'g', -1, 64))
			}
		}
		if q.Remove {
			parts = append(parts, "remove = true")
		}
		out = append(out, "  { "+strings.Join(parts, ", ")+" },")
	}
	return append(out, "]")
}

// tomlString is a TOML basic string: quotes, backslashes and control
// characters escaped.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\u%04X", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
