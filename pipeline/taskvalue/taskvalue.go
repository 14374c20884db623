// Package taskvalue is the one strict reader of task values that every
// importer (Harbor task.toml, SWE-bench JSONL, selection manifests) uses:
// each known key has a kind and a range, every other value has size caps,
// and no number that JSON cannot encode (NaN, ±Inf) gets into the store.
// A refused value is an *Error naming the key; the importer adds the file
// and line, refuses that task and goes on with the rest.
package taskvalue

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"curate/pipeline"
)

// Size caps. A field over its cap is refused, never truncated: a
// truncated patch or test list would be silently wrong.
const (
	MaxID    = 128      // ids become folder names
	MaxShort = 1 << 10  // names, languages, categories, commits
	MaxText  = 1 << 20  // titles, statements and any string not named below
	MaxPatch = 10 << 20 // patch columns (the build refuses bigger files too)
	// MaxInstruction bounds instruction.md and problem statements: a prompt
	// is text a person reads; megabytes of it are a mistake or an attack.
	MaxInstruction = 4 << 20
	MaxItems       = 100_000  // list elements (a PASS_TO_PASS list of a huge suite)
	MaxDepth       = 16       // nesting of unknown tables and lists
	MaxRow         = 16 << 20 // one JSONL row, read before anything is decoded
)

// Kind is what a known key must hold.
type Kind int

const (
	String     Kind = iota // a string up to Max bytes
	ID                     // a safe path segment: letters, digits, . _ + -, no ".."
	Difficulty             // a label from the scale, or a SWE-bench Verified time bucket
	Feature                // a finite number >= 0 (numeric strings accepted)
	Positive               // a finite number > 0 (cpus, timeouts, memory_mb)
	Size                   // a positive size: a number of MB, or "8G", "512M"
	Bool                   // true or false
	StringList             // a list of strings (each up to MaxShort... or Max)
	OneOf                  // a string from Values
)

// Spec says what one key may hold.
type Spec struct {
	Kind   Kind
	Max    int      // bytes of a string (0 = the kind's default)
	Values []string // OneOf
	// Range of a number or size (Positive, Feature, Size; MB for sizes):
	// 0 = unbounded. A value outside is refused, never clamped: a task
	// asking for 1 PB of memory is wrong, not merely greedy.
	Min, Limit float64
}

// Error is a refused value.
type Error struct {
	Key    string
	Reason string
}

func (e *Error) Error() string { return e.Key + ": " + e.Reason }

var safeID = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._+-]*$`)

// CheckID refuses an id that is not usable as one folder name.
func CheckID(key, id string) error {
	switch {
	case id == "":
		return &Error{key, "empty id"}
	case len(id) > MaxID:
		return &Error{key, fmt.Sprintf("id of %d bytes is over the %d-byte limit", len(id), MaxID)}
	case !safeID.MatchString(id) || strings.Contains(id, ".."):
		return &Error{key, fmt.Sprintf("id %s is not usable as a folder name (letters, digits, . _ + - only, no \"..\")", show(id))}
	}
	return nil
}

// Check checks v against spec and returns it normalised: numbers as
// float64, lists of strings as []string, sizes in MB as float64.
func Check(key string, spec Spec, v any) (any, error) {
	bad := func(format string, args ...any) error {
		return &Error{key, fmt.Sprintf(format, args...) + " (got " + describe(v) + ")"}
	}
	switch spec.Kind {
	case String, ID, Difficulty, OneOf:
		s, ok := v.(string)
		if !ok {
			return nil, bad("want a string")
		}
		if err := checkString(key, s, spec.max(MaxShort)); err != nil {
			return nil, err
		}
		switch spec.Kind {
		case ID:
			if err := CheckID(key, strings.TrimSpace(s)); err != nil {
				return nil, err
			}
			return strings.TrimSpace(s), nil
		case Difficulty:
			d, err := pipeline.ParseDifficulty(s)
			if err != nil {
				return nil, bad("want one of %s, or a SWE-bench Verified time bucket", pipeline.JoinDifficulties())
			}
			return string(d), nil
		case OneOf:
			for _, x := range spec.Values {
				if s == x {
					return s, nil
				}
			}
			return nil, bad("want one of %s", strings.Join(spec.Values, ", "))
		}
		return s, nil
	case Feature, Positive:
		f, ok := number(v)
		if !ok {
			return nil, bad("want a number")
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, bad("want a finite number")
		}
		if spec.Kind == Feature && f < 0 {
			return nil, bad("want a number >= 0")
		}
		if spec.Kind == Positive && f <= 0 {
			return nil, bad("want a number > 0")
		}
		if err := spec.inRange(f, ""); err != nil {
			return nil, bad("%s", err)
		}
		return f, nil
	case Size:
		mb, err := sizeMB(v)
		if err != nil {
			return nil, bad("want a positive size: MB as a number, or like \"8G\", \"512M\"")
		}
		if err := spec.inRange(mb, " MB"); err != nil {
			return nil, bad("%s", err)
		}
		return mb, nil
	case Bool:
		b, ok := v.(bool)
		if !ok {
			return nil, bad("want true or false")
		}
		return b, nil
	case StringList:
		list, ok := v.([]any)
		if !ok {
			if ss, ok2 := v.([]string); ok2 {
				list = make([]any, len(ss))
				for i, s := range ss {
					list[i] = s
				}
			} else {
				return nil, bad("want a list of strings")
			}
		}
		if len(list) > MaxItems {
			return nil, &Error{key, fmt.Sprintf("%d items is over the %d-item limit", len(list), MaxItems)}
		}
		out := make([]string, len(list))
		for i, x := range list {
			s, ok := x.(string)
			if !ok {
				return nil, bad("want a list of strings; item %d is %s", i+1, describe(x))
			}
			if err := checkString(fmt.Sprintf("%s[%d]", key, i+1), s, spec.max(MaxText)); err != nil {
				return nil, err
			}
			out[i] = s
		}
		return out, nil
	}
	return nil, fmt.Errorf("taskvalue: unknown kind %d for %s", spec.Kind, key)
}

// inRange refuses a number outside [Min, Limit] (either 0 = unbounded).
func (s Spec) inRange(f float64, unit string) error {
	num := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) + unit }
	switch {
	case s.Limit > 0 && f > s.Limit:
		return fmt.Errorf("want at most %s", num(s.Limit))
	case s.Min > 0 && f < s.Min:
		return fmt.Errorf("want at least %s", num(s.Min))
	}
	return nil
}

func (s Spec) max(def int) int {
	if s.Max > 0 {
		return s.Max
	}
	return def
}

// CheckAny checks a value no spec names (kept in a task's extra): strings
// up to MaxText (or max when > 0), lists up to MaxItems, finite numbers,
// nesting up to MaxDepth.
func CheckAny(key string, v any, max int) error {
	if max <= 0 {
		max = MaxText
	}
	return checkAny(key, v, max, 0)
}

func checkAny(key string, v any, max, depth int) error {
	if depth > MaxDepth {
		return &Error{key, fmt.Sprintf("nested deeper than %d levels", MaxDepth)}
	}
	switch x := v.(type) {
	case string:
		return checkString(key, x, max)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return &Error{key, "want a finite number (got " + describe(v) + ")"}
		}
	case []any:
		if len(x) > MaxItems {
			return &Error{key, fmt.Sprintf("%d items is over the %d-item limit", len(x), MaxItems)}
		}
		for i, el := range x {
			if err := checkAny(fmt.Sprintf("%s[%d]", key, i+1), el, max, depth+1); err != nil {
				return err
			}
		}
	case []string:
		if len(x) > MaxItems {
			return &Error{key, fmt.Sprintf("%d items is over the %d-item limit", len(x), MaxItems)}
		}
		for i, el := range x {
			if err := checkString(fmt.Sprintf("%s[%d]", key, i+1), el, max); err != nil {
				return err
			}
		}
	case map[string]any:
		if len(x) > MaxItems {
			return &Error{key, fmt.Sprintf("%d keys is over the %d-key limit", len(x), MaxItems)}
		}
		for k, el := range x {
			if err := checkString(key+" key", k, MaxShort); err != nil {
				return err
			}
			if err := checkAny(key+"."+k, el, max, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkString(key, s string, max int) error {
	if len(s) > max {
		return &Error{key, fmt.Sprintf("%s is over the %s limit", bytesText(len(s)), bytesText(max))}
	}
	if !utf8.ValidString(s) {
		return &Error{key, "not UTF-8 text"}
	}
	return nil
}

// number accepts TOML and JSON numbers and numeric strings ("975000", "1_000").
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case int:
		return float64(x), true
	case float64:
		return x, true
	case string:
		if len(x) > 64 {
			return 0, false
		}
		f, err := strconv.ParseFloat(strings.ReplaceAll(strings.TrimSpace(x), "_", ""), 64)
		return f, err == nil
	}
	return 0, false
}

// sizeMB reads 2048 (MB), "8G", "512M", "2048" into megabytes.
func sizeMB(v any) (float64, error) {
	if f, ok := number(v); ok {
		if f > 0 && !math.IsInf(f, 0) {
			return f, nil
		}
		return 0, fmt.Errorf("not positive")
	}
	s, ok := v.(string)
	if !ok || len(s) > 32 {
		return 0, fmt.Errorf("not a size")
	}
	s = strings.TrimSuffix(strings.ToUpper(strings.TrimSpace(s)), "B")
	mult := 1.0
	switch {
	case strings.HasSuffix(s, "T"):
		mult, s = 1<<20, strings.TrimSuffix(s, "T")
	case strings.HasSuffix(s, "G"):
		mult, s = 1024, strings.TrimSuffix(s, "G")
	case strings.HasSuffix(s, "M"):
		s = strings.TrimSuffix(s, "M")
	case strings.HasSuffix(s, "K"):
		mult, s = 1.0/1024, strings.TrimSuffix(s, "K")
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || !(f > 0) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("not a size")
	}
	return f * mult, nil
}

// describe shows a value in a message: its type in TOML/JSON words and a
// clipped, escaped rendering (never a Go type name, never raw control bytes).
func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return "string " + show(x)
	case bool:
		return strconv.FormatBool(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case int:
		return strconv.Itoa(x)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case []any, []string:
		return "a list"
	case map[string]any:
		return "a table"
	case time.Time:
		return "a date " + x.Format(time.RFC3339)
	}
	return "a date or time"
}

// show quotes s, clipped to 60 bytes with its full size.
func show(s string) string {
	if len(s) <= 60 {
		return strconv.Quote(s)
	}
	cut := 60
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + "… (" + bytesText(len(s)) + ")"
}

func bytesText(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
