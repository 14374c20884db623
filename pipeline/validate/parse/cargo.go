package parse

import "regexp"

var (
	cargoLine = regexp.MustCompile(`^test (\S+) \.\.\. (ok|FAILED|ignored|failed)\b`)
	cargoRan  = regexp.MustCompile(`^running \d+ tests?$|^test result: `)
)

// Cargo reads `cargo test` output: "test mod::name ... ok".
func Cargo(log []byte) *Report {
	r := &Report{}
	lines(log, func(l string) {
		if cargoRan.MatchString(l) {
			r.Ran = true
		}
		m := cargoLine.FindStringSubmatch(l)
		if m == nil {
			return
		}
		switch m[2] {
		case "ok":
			r.set(m[1], Passed)
		case "ignored":
			r.set(m[1], Skipped)
		default:
			r.set(m[1], Failed)
		}
	})
	return r
}
