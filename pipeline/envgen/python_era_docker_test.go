package envgen_test

import "testing"

// TestOldPythonRevisionValidates reproduces, in a small repository, three
// failures of an HTTP client's PRs of 2012-2015 that SWE-bench published
// as tasks:
//
//   - PR #2931 (merge b32c3bc1, 2015-12-16): requirements resolved as of
//     the revision's date gave pytest 2.8.1, which on Python 3.9 (the
//     oldest interpreter the Debian archive serves) stops at an
//     INTERNALERROR; they now resolve as of Python 3.9's release.
//   - the same PR: the verifier stopped at "pytest.py: error: unrecognized
//     arguments: -o test_requests.py" (pytest 2.x has no -o); the
//     junit_family override now goes only to a pytest that has it.
//   - PR #863 (merge 6a4062a8, 2012-09-22): its requirements.txt names the
//     nose plugin rudolf2, which PyPI no longer has, and the build stopped
//     at "curate: deps_missing: rudolf2"; it is now left out, said in the
//     build log.
//
// The repository here: a 2015 revision whose classifiers name Python 3.4,
// requirements.txt asking for pytest and a project PyPI does not have, and
// a PR fixing a function with a unittest-style test. NOP must give 0,
// Oracle 1.
func TestOldPythonRevisionValidates(t *testing.T) {
	if testing.Short() {
		t.Skip("builds images")
	}
	expectOK(t, validateOnlyPR(t, oldPythonRepo(t), "oldpy", "nop", "oracle"))
}

// oldPythonRepo makes a Python project whose commits are dated December
// 2015, with one merged PR (#1).
func oldPythonRepo(t *testing.T) string {
	t.Helper()
	return mergedPRRepo(t, "2015-12-16T15:20:", "https://git.example.org/acme/slugs.git", map[string]string{
		"setup.py": "from setuptools import setup\n\nsetup(\n    name='slugs',\n    version='0.1',\n    py_modules=['slugs'],\n" +
			"    classifiers=['Programming Language :: Python :: 2.7', 'Programming Language :: Python :: 3.4'],\n)\n",
		"requirements.txt": "pytest\ncurate-dropped-since-2015-7c1e\n",
		"slugs.py":         "def slug(title):\n    return title.lower()\n",
		"test_slugs.py":    "import unittest\n\nfrom slugs import slug\n\n\nclass SlugTest(unittest.TestCase):\n    def test_lower(self):\n        self.assertEqual(slug('Abc'), 'abc')\n",
	}, map[string]string{
		"slugs.py":      "def slug(title):\n    return '-'.join(title.lower().split())\n",
		"test_slugs.py": "import unittest\n\nfrom slugs import slug\n\n\nclass SlugTest(unittest.TestCase):\n    def test_lower(self):\n        self.assertEqual(slug('Abc'), 'abc')\n\n    def test_spaces(self):\n        self.assertEqual(slug('A  b c'), 'a-b-c')\n",
	}, "spaces", "Spaces become dashes")
}
