package parse

import (
	"regexp"
	"strings"
)

var (
	tapLine = regexp.MustCompile(`^\s*(not ok|ok)\b\s*(\d+)?\s*(?:-\s*)?([^#]*)(#\s*(\w+).*)?$`)
	tapPlan = regexp.MustCompile(`^\s*1\.\.\d+`)
)

// TAP reads Test Anything Protocol output: "ok 1 - name", "not ok 2 - name",
// with "# SKIP" and "# TODO" directives. An unnamed test is "#<number>".
func TAP(log []byte) *Report {
	r := &Report{}
	lines(log, func(l string) {
		if tapPlan.MatchString(l) || strings.HasPrefix(l, "TAP version") {
			r.Ran = true
		}
		m := tapLine.FindStringSubmatch(l)
		if m == nil {
			return
		}
		name := strings.TrimSpace(m[3])
		if name == "" {
			if m[2] == "" {
				return
			}
			name = "#" + m[2]
		}
		directive := strings.ToUpper(m[5])
		switch {
		case directive == "SKIP":
			r.set(name, Skipped)
		case directive == "TODO":
			if m[1] == "ok" {
				r.set(name, Failed) // a TODO that passes is unexpected
			} else {
				r.set(name, XFail)
			}
		case m[1] == "ok":
			r.set(name, Passed)
		default:
			r.set(name, Failed)
		}
	})
	if !r.Ran {
		// Without a plan line, "ok" lines are more likely another tool's
		// summary (go test's "ok  pkg 0.1s") than TAP.
		r.Tests = nil
	}
	return r
}
