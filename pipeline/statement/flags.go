package statement

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"curate/pipeline/unidiff"
)

// Flags a statement can carry. They never block a task: they say what a
// curator should read before trusting it.
const (
	FlagLeak           = "leak"           // quotes the fix: a run of its added lines
	FlagTestLeak       = "test_leak"      // names hidden test files or test functions, hints off
	FlagUnderspecified = "underspecified" // title only, under 25 words, or new names the tests use unnamed
	FlagLinkOnly       = "link_only"      // a pointer ("see #123", a URL) with no text
)

// AllFlags lists every flag, in the order they are shown.
var AllFlags = []string{FlagLeak, FlagTestLeak, FlagUnderspecified, FlagStrictTests, FlagLinkOnly}

// Hints modes ([instructions] hints).
const (
	HintsNone     = "none"
	HintsTests    = "tests"
	HintsFailures = "failures"
)

// HintModes lists the accepted [instructions] hints values.
var HintModes = []string{HintsNone, HintsTests, HintsFailures}

// Hints are the Hints section's lines for mode: the FAIL_TO_PASS test
// names when mode is "tests"; with "failures", each followed by the
// first message it printed before the fix (messages, read from the NOP
// run's log: a test with none, or no NOP run yet, stands alone as with
// "tests"; a message for the whole suite, key "", says the tests did not
// build before the fix); nothing otherwise.
func Hints(mode string, failToPass []string, messages map[string]string) []string {
	if mode != HintsTests && mode != HintsFailures || len(failToPass) == 0 {
		return nil
	}
	out := []string{"These tests fail before the change and must pass after it:"}
	if mode == HintsFailures && len(messages) > 0 && (len(messages) > 1 || messages[""] == "") {
		out[0] = "These tests fail before the change and must pass after it (with the first message each printed before the change):"
	}
	for _, n := range failToPass {
		line := "`" + n + "`"
		if m := messages[n]; mode == HintsFailures && m != "" {
			line += ": " + m
		}
		out = append(out, line)
	}
	if m := messages[""]; mode == HintsFailures && m != "" {
		out = append(out, "Before the change these tests do not build: "+m)
	}
	return out
}

// Evidence is what the checks compare a statement with.
type Evidence struct {
	Fix       []unidiff.File
	TestFiles []string
	TestNames []string
	// UsedNew are new public names the tests use.
	UsedNew []string
	Hints   string
	// CodeLines are the fixed files' lines that hold code (CodeLines);
	// a file absent from it counts every line.
	CodeLines map[string]map[int]bool
}

// minWords is the length under which a statement says too little to act
// on (the rule).
const minWords = 25

// Check returns st's flags, in AllFlags order.
func Check(st Statement, ev Evidence) []string {
	text := strings.TrimSpace(st.Text)
	prose := st.Title + "\n" + text
	var flags []string
	if leaks(text, ev.Fix, ev.CodeLines) {
		flags = append(flags, FlagLeak)
	}
	if ev.Hints == "" || ev.Hints == HintsNone {
		if namesTests(prose, ev.TestFiles, ev.TestNames) {
			flags = append(flags, FlagTestLeak)
		}
	}
	if len(UnderspecifiedBecause(st, ev)) > 0 {
		flags = append(flags, FlagUnderspecified)
	}
	if st.Source != SourceTitle && LinkOnly(text) {
		flags = append(flags, FlagLinkOnly)
	}
	return flags
}

// UnderspecifiedBecause lists what the statement, with its Requirements
// and Interface sections, leaves unsaid: "title only" or "N words" when
// the text is short and no Requirements section says what the tests
// check, and each new public name the tests use that it never names.
// Empty when it is specified enough.
func UnderspecifiedBecause(st Statement, ev Evidence) []string {
	text := strings.TrimSpace(st.Text)
	prose := st.Title + "\n" + text
	named := prose + "\n" + InterfaceSection(st.Interface)
	var out []string
	// A short text is enough when a derived section says what the tests
	// check: the values they compare (Requirements).
	if len(st.Requirements) == 0 {
		switch {
		case st.Source == SourceTitle:
			out = append(out, "title only")
		case Words(text) < minWords && !strings.EqualFold(text, st.Title) || Words(prose) < minWords:
			out = append(out, fmt.Sprintf("%d words", Words(prose)))
		}
	}
	for _, n := range ev.UsedNew {
		if !containsWord(named, n) {
			out = append(out, "`"+n+"` unnamed")
		}
	}
	return out
}

// Words counts the words of s outside code fences' markers.
func Words(s string) int { return len(strings.Fields(s)) }

// leaks reports whether text quotes the fix's code: two consecutive
// substantial added lines of a source file, or one long one, found in the
// text (whitespace folded).
func leaks(text string, fix []unidiff.File, code map[string]map[int]bool) bool {
	folded := collapse(text)
	if folded == "" {
		return false
	}
	for _, f := range fix {
		if languageOf(f.Name()) == "" {
			continue // a changelog or doc line quoted is not the fix's code
		}
		python := languageOf(f.Name()) == "python"
		codeLines, known := code[f.Name()]
		for _, h := range f.Hunks {
			var run []string
			inDoc := false
			for _, l := range h.Lines {
				line := collapse(l.Text)
				// A doc comment or docstring is the contract, which a
				// statement may quote: lines inside one (as far as the
				// hunk shows) are not the fix's code.
				was := inDoc
				inDoc = docState(inDoc, l.Text, python)
				notCode := was || inDoc || commentLineRe.MatchString(l.Text)
				if known { // the lexer's reading beats the hunk's
					notCode = !codeLines[l.NewNo]
				}
				if l.Kind != unidiff.Added || !substantial(line) || notCode {
					run = run[:0]
					continue
				}
				run = append(run, line)
				if len(line) >= 60 && strings.Contains(folded, line) {
					return true
				}
				if len(run) >= 2 && strings.Contains(folded, run[len(run)-2]+" "+line) {
					return true
				}
			}
		}
	}
	return false
}

// docState is whether a block comment (or a Python docstring) is open
// after line, given whether one was open before it.
func docState(open bool, line string, python bool) bool {
	if python {
		n := strings.Count(line, `"""`) + strings.Count(line, "'''")
		return open != (n%2 == 1)
	}
	for {
		if !open {
			i := strings.Index(line, "/*")
			if i < 0 {
				return false
			}
			open, line = true, line[i+2:]
			continue
		}
		i := strings.Index(line, "*/")
		if i < 0 {
			return true
		}
		open, line = false, line[i+2:]
	}
}

// substantial: a line with code on it, not a brace, a blank or a comment
// marker alone.
func substantial(line string) bool {
	n := 0
	for _, r := range line {
		if r != ' ' && r != '{' && r != '}' && r != '(' && r != ')' && r != ';' {
			n++
		}
	}
	return n >= 12
}

// namesTests reports whether prose names a test file (its path or base
// name) or a test function.
func namesTests(prose string, files, names []string) bool {
	for _, f := range files {
		if strings.Contains(prose, f) || len(path.Base(f)) > 6 && containsWord(prose, path.Base(f)) {
			return true
		}
	}
	for _, n := range names {
		if containsWord(prose, n) {
			return true
		}
	}
	return false
}

// ContainsWord reports whether w occurs in s not as part of a longer
// identifier.
func ContainsWord(s, w string) bool { return containsWord(s, w) }

func containsWord(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		before := j == 0 || !isIdent(s[j-1], true)
		after := j+len(w) >= len(s) || !isIdent(s[j+len(w)], true)
		if before && after {
			return true
		}
		i = j + 1
	}
}

// SortFlags orders flags as AllFlags does, dropping unknown ones.
func SortFlags(flags []string) []string {
	rank := map[string]int{}
	for i, f := range AllFlags {
		rank[f] = i + 1
	}
	out := make([]string, 0, len(flags))
	for _, f := range flags {
		if rank[f] > 0 {
			out = append(out, f)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return rank[out[i]] < rank[out[j]] })
	return out
}
