package validate

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"curate/pipeline/validate/parse"
)

// goldTestPrefix starts the log line of one test's result in a gold state
// graded from a report file (ctrf.json): the test output in the log may
// name tests otherwise, or not at all (CTest's JUnit ids are
// "name.name", its console says "name"), and the gold matrix, which the
// flaky-Oracle and known-failure rules read, must see what grading saw.
const goldTestPrefix = "curate: gold: test "

// logReportedTests writes one line per test of rep, sorted by name: its
// status and its quoted name (a name is a stranger's text).
func logReportedTests(log interface{ Line(string) }, rep *parse.Report) {
	names := make([]string, 0, len(rep.Tests))
	for n := range rep.Tests {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		log.Line(fmt.Sprintf("%s%s %s", goldTestPrefix, rep.Tests[n], strconv.Quote(n)))
	}
}

// parseReportedTest reads a line logReportedTests wrote.
func parseReportedTest(line string) (name string, st parse.Status, ok bool) {
	rest, found := strings.CutPrefix(line, goldTestPrefix)
	if !found {
		return "", "", false
	}
	status, quoted, found := strings.Cut(rest, " ")
	if !found || status == "" {
		return "", "", false
	}
	name, err := strconv.Unquote(quoted)
	if err != nil {
		return "", "", false
	}
	return name, parse.Status(status), true
}
