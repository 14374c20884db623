package parse

import (
	"encoding/json"
	"regexp"
	"strings"
)

// GoTestJSON reads `go test -json` events. Test ids carry their package
// ("example.com/calc.TestAdd"), so two packages' TestX stay apart.
func GoTestJSON(log []byte) *Report {
	r := &Report{}
	lines(r, log, func(l string) {
		l = strings.TrimSpace(l)
		if !strings.HasPrefix(l, "{") || !strings.Contains(l, `"Action"`) {
			return
		}
		var ev struct {
			Action, Package, Test string
			Elapsed               float64
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
		id := goTestID(ev.Package, ev.Test)
		if ev.Action == "pass" || ev.Action == "fail" || ev.Action == "skip" {
			r.took(id, ev.Elapsed)
		}
		switch ev.Action {
		case "pass":
			r.set(id, Passed)
		case "fail":
			r.set(id, Failed)
		case "skip":
			r.set(id, Skipped)
		}
	})
	return r
}

// goTestID is a Go test's id: "pkg/path.TestName", or the bare name when
// the package is unknown.
func goTestID(pkg, test string) string {
	if pkg == "" {
		return test
	}
	return pkg + "." + test
}

var (
	goTestLine = regexp.MustCompile(`^\s*--- (PASS|FAIL|SKIP): (\S+)`)
	goTestRan  = regexp.MustCompile(`^(ok|FAIL|\?)\s+\S+|^(PASS|FAIL)$|^=== RUN\s`)
	goTestPkg  = regexp.MustCompile(`^(?:ok|FAIL)\s+(\S+)\s`)
)

// GoTest reads `go test -v` text: "--- PASS: TestX (0.00s)". A package's
// tests print before its "ok pkg" / "FAIL pkg" line, which names it.
func GoTest(log []byte) *Report {
	r := &Report{}
	type result struct {
		name   string
		status Status
		line   int
	}
	var pending []result
	flush := func(pkg string) {
		at := r.at
		for _, p := range pending {
			r.at = p.line // the result's own line, not the package's
			r.set(goTestID(pkg, p.name), p.status)
		}
		r.at, pending = at, nil
	}
	lines(r, log, func(l string) {
		if goTestRan.MatchString(l) {
			r.Ran = true
		}
		if m := goTestPkg.FindStringSubmatch(l + " "); m != nil {
			flush(m[1])
			return
		}
		m := goTestLine.FindStringSubmatch(l)
		if m == nil {
			return
		}
		r.Ran = true
		status := map[string]Status{"PASS": Passed, "FAIL": Failed}[m[1]]
		if status == "" {
			status = Skipped
		}
		pending = append(pending, result{m[2], status, r.at})
	})
	flush("")
	return r
}
