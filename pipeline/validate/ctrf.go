package validate

import "curate/pipeline/validate/parse"

// ctrfFile is where generated test.sh leaves per-test results as CTRF.
const ctrfFile = "/logs/verifier/ctrf.json"

// testReport is a gold run's per-test results: ctrf.json when test.sh
// wrote a valid one with tests in it, else what the log parsers find.
func testReport(res *ExecResult) *parse.Report {
	if len(res.CTRF) > 0 {
		if r, err := parse.CTRF(res.CTRF); err == nil && len(r.Tests) > 0 {
			return r
		}
	}
	return parse.Auto(res.TestLog)
}
