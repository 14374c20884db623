package store

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"curate/pipeline"
)

// Features and score breakdowns are read for every task on every listing,
// so they are stored in a compact line format that decodes about ten
// times faster than JSON: one "name\tvalue\tsource" line per feature (the
// value is empty for a source-only entry, the source tab absent when
// none was recorded); the
// breakdown as "cc\tcfd\tssp\ttcw" then "rulekey\trule" lines. Rows written
// as JSON (the first format) still decode.

var fieldEscaper = strings.NewReplacer(`\`, `\\`, "\t", `\t`, "\n", `\n`)
var fieldUnescaper = strings.NewReplacer(`\\`, `\`, `\t`, "\t", `\n`, "\n")

func esc(s string) string {
	if strings.ContainsAny(s, "\\\t\n") {
		return fieldEscaper.Replace(s)
	}
	return s
}

func unesc(s string) string {
	if strings.IndexByte(s, '\\') >= 0 {
		return fieldUnescaper.Replace(s)
	}
	return s
}

func encodeFeatures(f pipeline.Features) string {
	if len(f.Values) == 0 && len(f.Sources) == 0 {
		return ""
	}
	// A source may be recorded for a non-numeric feature (the language):
	// such a line has an empty value.
	names := make([]string, 0, len(f.Sources)+len(f.Values))
	for k := range f.Values {
		names = append(names, k)
	}
	for k := range f.Sources {
		if _, ok := f.Values[k]; !ok {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	var b strings.Builder
	for _, k := range names {
		b.WriteString(esc(k))
		b.WriteByte('\t')
		if v, ok := f.Values[k]; ok {
			b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
		}
		if src, ok := f.Sources[k]; ok {
			b.WriteByte('\t')
			b.WriteString(esc(src))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func decodeFeatures(s string, f *pipeline.Features) error {
	if s == "" || s == "{}" {
		return nil
	}
	if s[0] == '{' {
		return json.Unmarshal([]byte(s), f)
	}
	f.Values = map[string]float64{}
	f.Sources = map[string]string{}
	for len(s) > 0 {
		line, rest, _ := strings.Cut(s, "\n")
		s = rest
		name, tail, ok := strings.Cut(line, "\t")
		if !ok {
			return fmt.Errorf("feature line %q: want name, value and source", line)
		}
		val, src, hasSrc := strings.Cut(tail, "\t")
		name = unesc(name)
		if val != "" {
			v, err := strconv.ParseFloat(val, 64)
			if err != nil {
				return fmt.Errorf("feature %s: %w", name, err)
			}
			f.Values[name] = v
		}
		if hasSrc {
			f.Sources[name] = unesc(src)
		}
	}
	return nil
}

func encodeBreakdown(b pipeline.ScoreBreakdown) string {
	if b.ContextComplexity == 0 && b.CrossFileDeps == 0 && b.SemanticSearchPotential == 0 && b.TaskCategoryWeight == 0 && len(b.Rules) == 0 {
		return ""
	}
	var sb strings.Builder
	for i, v := range []float64{b.ContextComplexity, b.CrossFileDeps, b.SemanticSearchPotential, b.TaskCategoryWeight} {
		if i > 0 {
			sb.WriteByte('\t')
		}
		sb.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
	}
	sb.WriteByte('\n')
	keys := make([]string, 0, len(b.Rules))
	for k := range b.Rules {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		sb.WriteString(esc(k))
		sb.WriteByte('\t')
		sb.WriteString(esc(b.Rules[k]))
		sb.WriteByte('\n')
	}
	return sb.String()
}

func decodeBreakdown(s string, b *pipeline.ScoreBreakdown) error {
	if s == "" || s == "{}" {
		return nil
	}
	if s[0] == '{' {
		return json.Unmarshal([]byte(s), b)
	}
	head, rest, _ := strings.Cut(s, "\n")
	parts := strings.Split(head, "\t")
	if len(parts) != 4 {
		return fmt.Errorf("breakdown %q: want 4 components", head)
	}
	dst := []*float64{&b.ContextComplexity, &b.CrossFileDeps, &b.SemanticSearchPotential, &b.TaskCategoryWeight}
	for i, p := range parts {
		v, err := strconv.ParseFloat(p, 64)
		if err != nil {
			return fmt.Errorf("breakdown component %d: %w", i, err)
		}
		*dst[i] = v
	}
	for len(rest) > 0 {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		k, v, ok := strings.Cut(line, "\t")
		if !ok {
			return fmt.Errorf("breakdown rule line %q", line)
		}
		if b.Rules == nil {
			b.Rules = map[string]string{}
		}
		b.Rules[unesc(k)] = unesc(v)
	}
	return nil
}
