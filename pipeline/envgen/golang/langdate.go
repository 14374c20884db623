package golang

import (
	"fmt"
	"time"
)

// goReleases are the first releases of Go 1.13-1.21 (go.dev/doc/devel/release).
var goReleases = []struct {
	minor int
	date  string
}{
	{13, "2019-09-03"}, {14, "2020-02-25"}, {15, "2020-08-11"}, {16, "2021-02-16"}, {17, "2021-08-16"},
	{18, "2022-03-15"}, {19, "2022-08-02"}, {20, "2023-02-01"}, {21, "2023-08-08"},
}

// langAsOf is the Go language version a revision dated at was built with
// when go.mod says an older one: the newest Go released by then, if the
// go line is older. Go 1.18 compiled `any` in a module whose go.mod said
// go 1.13; Go 1.21 and later stop at "predeclared any requires go1.18 or
// later (-lang was set to go1.13; check go.mod)". Capped at 1.21: from
// 1.22 on the language version changes what loops mean.
func langAsOf(goLine string, at time.Time) (lang, source string) {
	if at.IsZero() || !goVersionRe.MatchString(goLine) {
		return "", ""
	}
	have := goParts(goLine)[0]
	for i := len(goReleases) - 1; i >= 0; i-- {
		r := goReleases[i]
		released, _ := time.Parse(time.DateOnly, r.date)
		if at.Before(released) {
			continue
		}
		if r.minor <= have {
			return "", ""
		}
		return fmt.Sprintf("go1.%d", r.minor), fmt.Sprintf("the Go of the revision's date %s (Go 1.%d, released %s), which did not hold code to go.mod's older go %s", at.Format(time.DateOnly), r.minor, r.date, goLine)
	}
	return "", ""
}
