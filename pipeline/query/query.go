// Package query parses the filter expressions that `curate list --filter`,
// `curate validate --filter` and the workbench's filter share.
//
// An expression is terms joined by AND (white space). A term is either a
// bare word, matched as a case-insensitive substring of id, repo, title and
// category, or FIELD OP VALUE with OP one of = != ~ > >= < <=. `=` and `!=`
// take a comma list (language=go,rust). `~` is a substring match. A term
// prefixed with `-` is negated. Quote values with spaces: phase="Testing & QA".
// flag is many-valued: flag=leak holds when leak is one of the statement's
// flags.
package query

import (
	"fmt"
	"strconv"
	"strings"

	"curate/pipeline"
)

// Query is a parsed filter; the zero value matches everything.
type Query struct {
	terms []term
	src   string
}

type term struct {
	field  string
	op     string
	values []string // lower-cased
	num    float64
	negate bool
}

// Fields lists the fields a term may name.
var Fields = []string{"id", "benchmark", "repo", "language", "category", "phase", "difficulty", "status", "score", "files", "loc", "excluded", "pinned", "labelled", "source",
	"review", "underspecified", "false_negative", "fix_time", "flag", "instruction_source"}

var numeric = map[string]bool{"score": true, "files": true, "loc": true, "underspecified": true, "false_negative": true}

// String returns the expression the query was parsed from.
func (q Query) String() string { return q.src }

// Empty reports whether the query matches everything.
func (q Query) Empty() bool { return len(q.terms) == 0 }

// Parse reads an expression; errors name the offending term and column.
func Parse(expr string) (Query, error) {
	toks, err := tokenize(expr)
	if err != nil {
		return Query{}, err
	}
	q := Query{src: expr}
	for _, tk := range toks {
		t, err := parseTerm(tk.text)
		if err != nil {
			return Query{}, fmt.Errorf("filter %q, column %d: %w", expr, tk.col, err)
		}
		q.terms = append(q.terms, t)
	}
	return q, nil
}

type token struct {
	text string
	col  int
}

// tokenize splits on white space outside double quotes and drops the quotes.
func tokenize(s string) ([]token, error) {
	var toks []token
	var b strings.Builder
	inQuote, start := false, 0
	flush := func(i int) {
		if b.Len() > 0 {
			toks = append(toks, token{b.String(), start + 1})
			b.Reset()
		}
	}
	for i, r := range s {
		switch {
		case r == '"':
			if b.Len() == 0 && !inQuote {
				start = i
			}
			inQuote = !inQuote
		case !inQuote && (r == ' ' || r == '\t' || r == '\n'):
			flush(i)
		default:
			if b.Len() == 0 && !inQuote {
				start = i
			}
			b.WriteRune(r)
		}
	}
	if inQuote {
		return nil, fmt.Errorf("filter %q: unterminated quote", s)
	}
	flush(len(s))
	return toks, nil
}

func parseTerm(s string) (term, error) {
	t := term{}
	if strings.HasPrefix(s, "-") && len(s) > 1 {
		t.negate = true
		s = s[1:]
	}
	idx, op := findOp(s)
	if idx < 0 {
		t.op = "word"
		t.values = []string{strings.ToLower(s)}
		return t, nil
	}
	t.field = strings.ToLower(s[:idx])
	t.op = op
	val := s[idx+len(op):]
	if !validField(t.field) {
		return t, fmt.Errorf("unknown field %q (fields: %s)", t.field, strings.Join(Fields, ", "))
	}
	switch op {
	case ">", ">=", "<", "<=":
		if !numeric[t.field] {
			return t, fmt.Errorf("%s is not numeric; %s needs one of score, files, loc, underspecified, false_negative", t.field, op)
		}
		n, err := strconv.ParseFloat(val, 64)
		if err != nil {
			return t, fmt.Errorf("%s%s%s: %q is not a number", t.field, op, val, val)
		}
		t.num = n
	default:
		for _, v := range strings.Split(val, ",") {
			t.values = append(t.values, strings.ToLower(strings.TrimSpace(v)))
		}
		if err := checkClosed(&t); err != nil {
			return t, err
		}
	}
	return t, nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if strings.EqualFold(x, y) {
			return true
		}
	}
	return false
}

// findOp finds the first operator, preferring two-character ones.
func findOp(s string) (int, string) {
	for i := 0; i < len(s); i++ {
		if i+1 < len(s) {
			two := s[i : i+2]
			if two == "!=" || two == ">=" || two == "<=" {
				return i, two
			}
		}
		switch s[i] {
		case '=', '~', '>', '<':
			if i == 0 {
				return -1, ""
			}
			return i, string(s[i])
		}
	}
	return -1, ""
}

func validField(f string) bool {
	for _, x := range Fields {
		if x == f {
			return true
		}
	}
	return false
}

// Match reports whether a task satisfies every term.
func (q Query) Match(t *pipeline.Task) bool {
	for i := range q.terms {
		if q.terms[i].match(t) == q.terms[i].negate {
			return false
		}
	}
	return true
}

func (tm *term) match(t *pipeline.Task) bool {
	if tm.op == "word" {
		w := tm.values[0]
		return containsFold(t.ID, w) || containsFold(t.Repo, w) || containsFold(t.Title, w) || containsFold(t.EffectiveCategory(), w) || containsFold(t.Benchmark, w)
	}
	if numeric[tm.field] {
		v, ok := numberOf(t, tm.field)
		if !ok {
			return false // an unreviewed task has no score to compare
		}
		switch tm.op {
		case ">":
			return v > tm.num
		case ">=":
			return v >= tm.num
		case "<":
			return v < tm.num
		case "<=":
			return v <= tm.num
		}
		return tm.eqAny(strconv.FormatFloat(v, 'f', -1, 64))
	}
	if tm.field == "flag" {
		return tm.matchSet(pipeline.StatementFlags(t))
	}
	got := FieldValue(t, tm.field)
	switch tm.op {
	case "=":
		return tm.eqAny(got)
	case "!=":
		return !tm.eqAny(got)
	case "~":
		for _, v := range tm.values {
			if containsFold(got, v) {
				return true
			}
		}
		return false
	}
	return false
}

// numberOf is a task's value for a numeric field; false when it has none.
func numberOf(t *pipeline.Task, field string) (float64, bool) {
	switch field {
	case "score":
		return t.Score, true
	case "files":
		return float64(t.Features.Int(pipeline.FeatFilesChanged)), true
	case "loc":
		return float64(t.Features.Int(pipeline.FeatLOCChanged)), true
	case "underspecified", "false_negative":
		s := t.Labels.Underspecified
		if field == "false_negative" {
			s = t.Labels.FalseNegative
		}
		n, err := strconv.Atoi(s)
		return float64(n), err == nil
	}
	return 0, false
}

// matchSet matches a many-valued field (flag=leak: leak is among the
// task's flags; flag!=leak: it is not; flag~leak: one contains it).
func (tm *term) matchSet(got []string) bool {
	any := false
	for _, g := range got {
		switch tm.op {
		case "=":
			any = any || tm.eqAny(g)
		case "!=":
			any = any || tm.eqAny(g)
		case "~":
			for _, v := range tm.values {
				any = any || containsFold(g, v)
			}
		}
	}
	if tm.op == "!=" {
		return !any
	}
	return any
}

func (tm *term) eqAny(got string) bool {
	for _, v := range tm.values {
		if strings.EqualFold(got, v) {
			return true
		}
	}
	return false
}

// FieldValue is a task's value for a text field, as the filter sees it.
func FieldValue(t *pipeline.Task, field string) string {
	switch field {
	case "id":
		return t.ID
	case "benchmark":
		return t.Benchmark
	case "repo":
		return t.Repo
	case "language":
		return t.Language
	case "category":
		return t.EffectiveCategory()
	case "phase":
		return t.Phase()
	case "difficulty":
		return string(t.EffectiveDifficulty())
	case "status":
		return string(t.Status)
	case "source":
		return t.Source
	case "excluded":
		return strconv.FormatBool(t.Labels.Excluded)
	case "pinned":
		return strconv.FormatBool(t.Labels.Pinned)
	case "labelled":
		return strconv.FormatBool(t.Labels.Difficulty != "")
	case "review":
		return t.Labels.ReviewState()
	case "fix_time":
		return t.Labels.FixTime
	case "flag":
		return strings.Join(pipeline.StatementFlags(t), ",")
	case "instruction_source":
		return pipeline.InstructionSource(t)
	}
	return ""
}

// containsFold is a case-insensitive substring test; needle is lower-case.
func containsFold(hay, needle string) bool {
	if needle == "" {
		return true
	}
	if len(hay) < len(needle) {
		return false
	}
	// Fast path: ASCII lower-casing without allocating for short strings.
	for i := 0; i+len(needle) <= len(hay); i++ {
		ok := true
		for j := 0; j < len(needle); j++ {
			c := hay[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != needle[j] {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}
