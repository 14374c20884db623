package python

import (
	"curate/pipeline/envgen"
	"strings"
	"testing"
	"time"
)

// Requirements of a revision older than its interpreter that do not
// install or run as of the revision's date take the interpreter's
// release date (curate-pip, below): an HTTP client's PR #2931 (merge b32c3bc1,
// 2015-12-16) ran on Python 3.9 with the dated pytest 2.8.1, which stops
// at "INTERNALERROR> ... warn_about_missing_assertion ... AssertionError",
// and its dated coverage and Flask sdists could not build ("No matching
// distribution found for setuptools>=40.8.0": no such release in 2015).
// A revision newer than its interpreter keeps its own date.
func TestRequirementsNotOlderThanTheInterpreter(t *testing.T) {
	for _, c := range []struct{ date, files, want string }{
		{"2015-12-16T15:20:26Z", "Programming Language :: Python :: 3.5", "CURATE_UPLOADED_PRIOR_TO=2015-12-16T15:20:26Z CURATE_INTERPRETER_RELEASED=2020-10-05T00:00:00Z curate-step"},
		{"2021-06-01T08:00:00Z", "Programming Language :: Python :: 3.9", "CURATE_UPLOADED_PRIOR_TO=2021-06-01T08:00:00Z curate-step"},
		{"2024-03-05T10:11:12Z", "", "CURATE_UPLOADED_PRIOR_TO=2024-03-05T10:11:12Z curate-step"},
	} {
		tree := envgen.MapTree("o/n", map[string]string{"setup.py": "from setuptools import setup\nsetup(name='n', classifiers=['" + c.files + "'])\n",
			"requirements.txt": "pytest\n"})
		tree.Date, _ = time.Parse(time.RFC3339, c.date)
		p, err := envgen.LanguageFor("python").Plan(tree, envgen.Tests{Files: []string{"test_n.py"}})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.DepSteps) == 0 || !strings.HasPrefix(p.DepSteps[0], c.want) {
			t.Errorf("revision of %s (%s): pip step %q, want it to start %q", c.date, p.Toolchain.Version, p.DepSteps, c.want)
		}
	}
}
