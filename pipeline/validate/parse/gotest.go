package parse

import (
	"encoding/json"
	"regexp"
	"strings"
)

// GoTestJSON reads `go test -json` events.
func GoTestJSON(log []byte) *Report {
	r := &Report{}
	lines(log, func(l string) {
		l = strings.TrimSpace(l)
		if !strings.HasPrefix(l, "{") || !strings.Contains(l, `"Action"`) {
			return
		}
		var ev struct {
			Action, Package, Test string
		}
		if json.Unmarshal([]byte(l), &ev) != nil {
			return
		}
		switch ev.Action {
		case "start", "run", "output", "pass", "fail", "skip":
			r.Ran = true
		}
		if ev.Test == "" {
			return
		}
		switch ev.Action {
		case "pass":
			r.set(ev.Test, Passed)
		case "fail":
			r.set(ev.Test, Failed)
		case "skip":
			r.set(ev.Test, Skipped)
		}
	})
	return r
}

var (
	goTestLine = regexp.MustCompile(`^\s*--- (PASS|FAIL|SKIP): (\S+)`)
	goTestRan  = regexp.MustCompile(`^(ok|FAIL|\?)\s+\S+|^(PASS|FAIL)$|^=== RUN\s`)
)

// GoTest reads `go test -v` text: "--- PASS: TestX (0.00s)".
func GoTest(log []byte) *Report {
	r := &Report{}
	lines(log, func(l string) {
		if goTestRan.MatchString(l) {
			r.Ran = true
		}
		m := goTestLine.FindStringSubmatch(l)
		if m == nil {
			return
		}
		r.Ran = true
		switch m[1] {
		case "PASS":
			r.set(m[2], Passed)
		case "FAIL":
			r.set(m[2], Failed)
		default:
			r.set(m[2], Skipped)
		}
	})
	return r
}
