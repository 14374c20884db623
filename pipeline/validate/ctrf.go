package validate

import "curate/pipeline/validate/parse"

// ctrfFile is where generated test.sh leaves per-test results as CTRF.
const ctrfFile = "/logs/verifier/ctrf.json"

// testReport is a gold run's per-test results: ctrf.json when test.sh
// wrote a valid one with tests in it, else what the log parser of the
// task's log format (else any parser) finds. from says which, for the run
// log.
func testReport(res *ExecResult, format string) (r *parse.Report, from string) {
	if len(res.CTRF) > 0 {
		r, err := parse.CTRF(res.CTRF)
		if err == nil && len(r.Tests) > 0 {
			return r, "ctrf.json"
		}
		if err != nil {
			from = "the log (" + err.Error() + ")"
		}
	}
	r = parse.ForFormat(format, res.TestLog)
	if from == "" {
		from = "the log"
	}
	return r, from + " [" + r.Framework + "]"
}
