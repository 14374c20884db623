package python

import "time"

// pyResolutionDate is the date requirements resolve as of (pip
// --uploaded-prior-to) and why, "" when the revision has no date: its
// commit date, or the interpreter's release when that is later. A
// release made before the interpreter existed was never run on it, and
// the test runner of a revision's date often does not start there
// (pytest 2.8.1, the newest on 2015-12-16, stops at an INTERNALERROR on
// Python 3.9); the releases of the interpreter's date are the oldest that
// knew it, so the closest to the revision that run. Build requirements
// resolve the same way (pip's setuptools>=40.8.0 for a setup.py sdist has
// no release before 2019).
func pyResolutionDate(revision time.Time, interpreter string) (string, string) {
	if revision.IsZero() {
		return "", ""
	}
	const layout = "2006-01-02T15:04:05Z"
	if released, ok := pyReleased[interpreter]; ok && revision.Before(released) {
		return released.UTC().Format(layout), "the release of Python " + interpreter + " (" + released.Format("2006-01-02") +
			"), later than the revision's commit date " + revision.UTC().Format("2006-01-02") + ": no older release was made for that interpreter"
	}
	return revision.UTC().Format(layout), "the revision's commit date"
}
