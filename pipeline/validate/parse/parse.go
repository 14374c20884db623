// Package parse reads per-test results out of test-runner logs: pytest, unittest, go
// test (-json and verbose text), cargo test, jest/vitest, maven surefire,
// with JUnit XML and TAP as fallbacks. Logs are untrusted: parsers never
// fail on odd input, they just find fewer tests.
package parse

import (
	"bufio"
	"bytes"
	"sort"
	"strings"
)

// Status is one test's result, in SWE-bench's words.
type Status string

const (
	Passed  Status = "PASSED"
	Failed  Status = "FAILED"
	Skipped Status = "SKIPPED"
	Error   Status = "ERROR"
	XFail   Status = "XFAIL"
)

// Pass reports whether the status counts as passing (SWE-bench counts an
// expected failure as a pass).
func (s Status) Pass() bool { return s == Passed || s == XFail }

// Fail reports whether the status counts as failing.
func (s Status) Fail() bool { return s == Failed || s == Error }

// Report is what a parser found in a log.
type Report struct {
	Framework string
	Tests     map[string]Status
	// Ran is true when the log shows the suite started (a summary line, a
	// "running N tests" header...), even if no test result was found.
	Ran bool
	// Lines is where each test's result was read: the 1-based line of the
	// log the parser was given. A test read from another file (ctrf.json)
	// has none. It never changes a status.
	Lines map[string]int
	// Seconds is how long each test took, where the log says (go test
	// -json's Elapsed); the workbench's test list shows it.
	Seconds map[string]float64
	at      int // the line being read
}

func (r *Report) took(test string, seconds float64) {
	if r.Seconds == nil {
		r.Seconds = map[string]float64{}
	}
	r.Seconds[test] = seconds
}

// Line is the 1-based line of the log test's result was read from, 0
// when not known.
func (r *Report) Line(test string) int { return r.Lines[test] }

// Failing is how many tests failed or errored.
func (r *Report) Failing() int {
	n := 0
	for _, s := range r.Tests {
		if s.Fail() {
			n++
		}
	}
	return n
}

// Names returns the test ids, sorted.
func (r *Report) Names() []string {
	out := make([]string, 0, len(r.Tests))
	for k := range r.Tests {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// set records a result; a worse status wins when a test is seen twice
// (pytest prints both a verbose line and a summary line).
func (r *Report) set(name string, s Status) {
	name = strings.TrimSpace(name)
	if name == "" {
		return
	}
	if r.Tests == nil {
		r.Tests = map[string]Status{}
	}
	if old, ok := r.Tests[name]; ok && rank(old) >= rank(s) {
		return
	}
	r.Tests[name] = s
	if r.at > 0 {
		if r.Lines == nil {
			r.Lines = map[string]int{}
		}
		r.Lines[name] = r.at
	}
}

func rank(s Status) int {
	switch s {
	case Error:
		return 4
	case Failed:
		return 3
	case Passed, XFail:
		return 2
	default:
		return 1
	}
}

// Parser reads one framework's log.
type Parser struct {
	Name  string
	Parse func(log []byte) *Report
}

// Parsers lists the parsers in the order Auto tries them: structured
// formats first, then the text formats, the fallbacks last.
var Parsers = []Parser{
	{"gotest-json", GoTestJSON},
	{"pytest", Pytest},
	{"unittest", Unittest},
	{"gotest", GoTest},
	{"cargo", Cargo},
	{"jest-json", JestJSON},
	{"jest", Jest},
	{"maven", Maven},
	{"junit-xml", JUnitXML},
	{"tap", TAP},
}

// Auto returns the report of the first parser that finds tests, else the
// first whose log shows the suite ran, else an empty report.
func Auto(log []byte) *Report {
	var ran *Report
	for _, p := range Parsers {
		r := p.Parse(log)
		r.Framework = p.Name
		if len(r.Tests) > 0 {
			return r
		}
		if r.Ran && ran == nil {
			ran = r
		}
	}
	if ran != nil {
		return ran
	}
	return &Report{}
}

// maxLine is the longest line the parsers read: a whole log (gold keeps
// at most 64 MiB), since a JSON report is one line (vitest's for
// a suite of 63,623 tests is 17 MB).
const maxLine = 64 << 20

// lines calls fn for each line of log, without its line ending; results
// r records meanwhile are placed on that line.
func lines(r *Report, log []byte, fn func(string)) {
	sc := bufio.NewScanner(bytes.NewReader(log))
	sc.Buffer(make([]byte, 0, 64<<10), maxLine+1)
	r.at = 0
	for sc.Scan() {
		r.at++
		fn(strings.TrimRight(sc.Text(), "\r"))
	}
	r.at = 0
}

// formats maps the log formats test.sh declares (envgen's Runner
// LogFormat, "# curate-log-format:" in test.sh, log_format in task.toml)
// to the parser that reads them. Several runners share a format: mocha,
// ava, node --test, node-tap and tape print TAP; vitest writes jest's
// JSON report.
var formats = map[string]func([]byte) *Report{
	"pytest": Pytest, "go": GoTestJSON, "cargo": Cargo, "surefire": Maven, "maven": Maven, "gradle": Maven,
	"jest": JestJSON, "vitest": JestJSON, "mocha": TAP, "ava": TAP, "node-test": TAP, "tap": TAP, "tape": TAP,
	"junit-xml": JUnitXML, "ctest": JUnitXML,
}

// ForFormat parses log with the parser of a declared log format; an
// unknown or empty format, or a parser that finds no sign of the suite,
// falls back to Auto (a [repos] test_command may print anything).
func ForFormat(format string, log []byte) *Report {
	if p, ok := formats[format]; ok {
		r := p(log)
		r.Framework = format
		if len(r.Tests) > 0 || r.Ran {
			return r
		}
	}
	return Auto(log)
}
