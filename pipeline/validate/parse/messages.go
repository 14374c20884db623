package parse

import (
	"bufio"
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"unicode/utf8"
)

// MaxMessage is the longest failure message FailureMessages returns, in
// bytes: a hint, not a stack trace.
const MaxMessage = 240

// maxMessages is how many tests get a message: a hint lists a few, and
// the search per test must not make a stranger's log quadratic.
const maxMessages = 100

// messageWindow is how many lines after a test's failure header (or its
// result line) a message is looked for: pytest prints the test's source
// first (click #3653's parametrized test: 60 lines); a traceback's last line is
// usually within it, and a window keeps the cost linear in the log.
const messageWindow = 200

// SuiteKey is FailureMessages' key for a message of the whole suite:
// the first compiler error of tests that do not build before the fix.
const SuiteKey = ""

// FailureMessages finds, for each of tests that the log shows failing,
// the first assertion message the log prints for it (a NOP run's log:
// "got 4 want 2", "assert 4 == 2", "expected ... but was ..."). A test
// whose message is not found is absent from the map. When none of tests
// has a result because the tests did not compile, SuiteKey holds the
// first compiler error. Logs are untrusted: messages are one line of
// printable text, at most MaxMessage bytes.
func FailureMessages(format string, log []byte, tests []string) map[string]string {
	out := map[string]string{}
	rep := ForFormat(format, log)
	var want []string
	seen := false
	for _, t := range tests {
		if rep.Tests[t].Fail() && len(want) < maxMessages {
			want = append(want, t)
		}
		_, ok := rep.Tests[t]
		seen = seen || ok
	}
	if !seen && len(tests) > 0 {
		if m := compileError(splitLines(log)); m != "" {
			out[SuiteKey] = m
		}
	}
	if len(want) == 0 {
		return out
	}
	if rep.Framework == "go" || rep.Framework == "gotest-json" {
		goMessages(log, want, out)
	}
	if rep.Framework == "jest" || rep.Framework == "vitest" || rep.Framework == "jest-json" {
		jestMessages(log, want, out)
	}
	textMessages(rep, splitLines(log), want, out)
	return out
}

var (
	goAssertLine = regexp.MustCompile(`^\s*[\w.\-/]+\.go:\d+: (.+)`)
	goPanicLine  = regexp.MustCompile(`^\s*(panic: .+)`)
)

// goMessages reads go test -json output events: a test's first
// "file_test.go:N: message" (t.Error, t.Fatal), else its panic.
func goMessages(log []byte, want []string, out map[string]string) {
	wanted := map[string]bool{}
	for _, w := range want {
		wanted[w] = true
	}
	panics := map[string]string{}
	eachLine(log, func(l string) {
		l = strings.TrimSpace(l)
		if !strings.HasPrefix(l, "{") || !strings.Contains(l, `"output"`) {
			return
		}
		var ev struct{ Action, Package, Test, Output string }
		if json.Unmarshal([]byte(l), &ev) != nil || ev.Action != "output" || ev.Test == "" {
			return
		}
		// A subtest's message is its parent's too (FAIL_TO_PASS may name either).
		for name := ev.Test; name != ""; name = parentTest(name) {
			id := goTestID(ev.Package, name)
			if !wanted[id] || out[id] != "" {
				continue
			}
			if m := goAssertLine.FindStringSubmatch(ev.Output); m != nil {
				out[id] = clean(m[1])
			} else if m := goPanicLine.FindStringSubmatch(ev.Output); m != nil && panics[id] == "" {
				panics[id] = clean(m[1])
			}
		}
	})
	for id, p := range panics {
		if out[id] == "" {
			out[id] = p
		}
	}
}

func parentTest(name string) string {
	i := strings.LastIndexByte(name, '/')
	if i < 0 {
		return ""
	}
	return name[:i]
}

// jestMessages reads jest's and vitest's JSON report: the first line of
// an assertion's first failureMessage.
func jestMessages(log []byte, want []string, out map[string]string) {
	wanted := map[string]bool{}
	for _, w := range want {
		wanted[w] = true
	}
	eachLine(log, func(l string) {
		l = strings.TrimSpace(l)
		if !strings.HasPrefix(l, "{") || !strings.Contains(l, `"failureMessages"`) {
			return
		}
		var rep struct {
			TestResults []struct {
				Name             string `json:"name"`
				AssertionResults []struct {
					AncestorTitles  []string `json:"ancestorTitles"`
					Title           string   `json:"title"`
					FailureMessages []string `json:"failureMessages"`
				} `json:"assertionResults"`
			} `json:"testResults"`
		}
		if json.Unmarshal([]byte(l), &rep) != nil {
			return
		}
		for _, f := range rep.TestResults {
			file := strings.TrimPrefix(f.Name, workDir)
			for _, a := range f.AssertionResults {
				id := strings.Join(append(append([]string{file}, a.AncestorTitles...), a.Title), " > ")
				if !wanted[id] || out[id] != "" {
					continue
				}
				for _, m := range a.FailureMessages {
					for line := range strings.SplitSeq(m, "\n") {
						if c := clean(line); c != "" {
							out[id] = c
							break
						}
					}
					if out[id] != "" {
						break
					}
				}
			}
		}
	})
}

// messageLine recognises an assertion message in a text log, by runner:
// the capture (or the whole line) is the message.
var messageLine = []*regexp.Regexp{
	regexp.MustCompile(`^E\s{2,}(\S.*)`),                                                               // pytest
	regexp.MustCompile(`^\s*message:\s*(\S.*)`),                                                        // TAP's YAML block (ava, node --test)
	regexp.MustCompile(`^\s*[\w.\-/]+\.go:\d+: (.+)`),                                                  // go test text
	regexp.MustCompile(`^\s*panicked at '(.+)', \S+:\d+`),                                              // Rust before 1.73
	regexp.MustCompile(`^\s*(assertion .+ failed.*)`),                                                  // Rust's assert_eq!, C's assert
	regexp.MustCompile(`^\s*((?:[\w$]+\.)*[\w$]*(?:Error|Exception|Failure|Failed)(?: \[\w+\])?: .+)`), // Python, Java, JS
	regexp.MustCompile(`^\s*(expect\(.+)`),                                                             // jest
	regexp.MustCompile(`^\s*(expected:? .+)`),                                                          // JUnit, chai
	regexp.MustCompile(`^\s*(Expected[: ].+)`),                                                         // GoogleTest, jest
	regexp.MustCompile(`^\s*(ERROR: CHECK.+|CHECK\(.+\) is NOT correct.*)`),                            // doctest
}

// rustPanicAt is Rust 1.73+'s "panicked at FILE:L:C:" line: the message
// is the next line.
var rustPanicAt = regexp.MustCompile(`panicked at \S+:\d+:\d+:\s*$`)

// sectionHeader is a line that starts a test's failure report: pytest's
// "____ test ____", unittest's "FAIL: test (...)", cargo's "---- test
// stdout ----", jest's "● suite › test", surefire's "<<< FAILURE!".
var sectionHeader = regexp.MustCompile(`^_{3,} .+ _{3,}$|^(FAIL|ERROR): \S|^---- .+ ----$|^\s*● |<<< (FAILURE|ERROR)!|^not ok \d+|^=== RUN\s`)

// textMessages looks, for each wanted test still without a message, in
// the failure section that names it, then after its result line: the
// first line messageLine recognises, before the next section starts.
func textMessages(rep *Report, lines []string, want []string, out map[string]string) {
	// One pass finds pytest's summary lines, which carry the message on
	// the test's own line, and the section headers.
	summary := map[string]string{}
	var headers []int
	for i, l := range lines {
		if rest, ok := strings.CutPrefix(l, "FAILED "); ok {
			if id, msg, ok := strings.Cut(rest, " - "); ok && summary[id] == "" {
				summary[id] = msg
			}
		}
		if sectionHeader.MatchString(l) {
			headers = append(headers, i)
		}
	}
	for _, id := range want {
		if out[id] != "" {
			continue
		}
		// pytest cuts a summary line at the terminal's width ("... Te...");
		// the test's own section then has the whole line.
		truncated := strings.HasSuffix(summary[id], "...")
		if m := clean(summary[id]); m != "" && !truncated {
			out[id] = m
			continue
		}
		short := shortName(id)
		for _, i := range headers {
			if strings.Contains(lines[i], short) {
				if m := messageAfter(lines, i); m != "" {
					out[id] = m
					break
				}
			}
		}
		if out[id] == "" && rep.Line(id) > 0 {
			out[id] = messageAfter(lines, rep.Line(id)-1)
		}
		if out[id] == "" && truncated {
			out[id] = clean(summary[id])
		}
		if out[id] == "" {
			delete(out, id)
		}
	}
}

// messageAfter is the first message in the lines after lines[at], up to
// the next section or messageWindow lines.
func messageAfter(lines []string, at int) string {
	for i := at + 1; i < len(lines) && i <= at+messageWindow; i++ {
		l := lines[i]
		if sectionHeader.MatchString(l) {
			return ""
		}
		if rustPanicAt.MatchString(l) {
			for j := i + 1; j < len(lines) && j <= i+3; j++ {
				if c := clean(lines[j]); c != "" {
					return clean(c + operands(lines[j+1:]))
				}
			}
		}
		for _, re := range messageLine {
			if m := re.FindStringSubmatch(l); m != nil {
				return clean(m[len(m)-1] + operands(lines[i+1:]))
			}
		}
	}
	return ""
}

var operandLine = regexp.MustCompile(`^\s*(left|right)\s*:`)

// operands are the "left: 1 / right: 2" lines Rust's assert_eq! prints
// under its message, joined onto it.
func operands(next []string) string {
	var out string
	for i := 0; i < len(next) && i < 2 && operandLine.MatchString(next[i]); i++ {
		out += "; " + strings.TrimSpace(next[i])
	}
	return out
}

var goTestName = regexp.MustCompile(`\.((?:Test|Example|Fuzz)\w*(?:/.*)?)$`)

// compilerError is a compiler's diagnostic line, by toolchain: go and C
// ("file:line:col: msg"), javac through Maven, rustc, tsc.
var compilerError = []*regexp.Regexp{
	regexp.MustCompile(`^\S+\.(?:go|c|cc|cpp|cxx|h|hpp):\d+:\d+: (?:(?:fatal )?error: )?(.+)`),
	regexp.MustCompile(`^\[ERROR\] \S+\.java:\[\d+,\d+\] (.+)`),
	regexp.MustCompile(`^(error\[E\d+\]: .+)`),
	regexp.MustCompile(`^\S+\.tsx?\(\d+,\d+\): (error TS\d+: .+)`),
}

// compileError is the first compiler diagnostic in lines, "" when none.
func compileError(lines []string) string {
	for _, l := range lines {
		for _, re := range compilerError {
			if m := re.FindStringSubmatch(l); m != nil {
				return clean(m[1])
			}
		}
	}
	return ""
}

// shortName is the part of a test id a failure header repeats: after
// the last "::", " > " or "/" (pytest, jest, go), else the method of a
// dotted id.
func shortName(id string) string {
	if m := goTestName.FindStringSubmatch(id); m != nil {
		return m[1]
	}
	for _, sep := range []string{"::", " > ", "/"} {
		if i := strings.LastIndex(id, sep); i >= 0 {
			return id[i+len(sep):]
		}
	}
	if i := strings.LastIndexByte(id, '.'); i >= 0 && i < len(id)-1 && !strings.ContainsAny(id, " ()") {
		return id[i+1:]
	}
	return id
}

// clean makes one printable line of at most MaxMessage bytes.
func clean(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '\t' {
			return ' '
		}
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == utf8.RuneError {
			return -1
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > MaxMessage {
		cut := MaxMessage - len("…")
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

func splitLines(log []byte) []string {
	var out []string
	eachLine(log, func(l string) { out = append(out, l) })
	return out
}

func eachLine(log []byte, fn func(string)) {
	sc := bufio.NewScanner(bytes.NewReader(log))
	sc.Buffer(make([]byte, 0, 64<<10), maxLine+1)
	for sc.Scan() {
		fn(strings.TrimRight(sc.Text(), "\r"))
	}
}
