package python

import (
	"fmt"
	"time"
)

// pyResolutionDates are the dates requirements resolve as of (pip
// --uploaded-prior-to): the revision's commit date, and the interpreter's
// release when that is later ("" else), with why. A release made before
// the interpreter existed was never run on it: the test runner of a
// revision's date may not start there (pytest 2.8.1, the newest on
// 2015-12-16, stops at an INTERNALERROR on Python 3.9), and an sdist of
// that date does not build (pip's setuptools>=40.8.0 has no release before
// 2019). curate-pip takes the interpreter's date for what does not
// install or run as of the revision's: the releases closest to the
// revision that knew the interpreter.
func pyResolutionDates(revision time.Time, interpreter string) (asOf, later, why string) {
	if revision.IsZero() {
		return "", "", ""
	}
	const layout = "2006-01-02T15:04:05Z"
	asOf, why = revision.UTC().Format(layout), "the revision's commit date"
	if released, ok := pyReleased[interpreter]; ok && revision.Before(released) {
		later = released.UTC().Format(layout)
		why += fmt.Sprintf("; what does not install or run as of it, as of Python %s's release (%s)", interpreter, released.Format("2006-01-02"))
	}
	return asOf, later, why
}
