package profiles

import "testing"

// The embedded profile decodes with its stage files in any order: the
// top-level keys of profile.toml must not fall into [filter.swesmith].
func TestEmbeddedProfileLoadsFilter(t *testing.T) {
	p, err := Load("ccb", "")
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "ccb" || p.Filter.TaskGen.MinSourceFiles != 3 || p.Filter.SWESmith.MaxChangedLines != 500 || len(p.Filter.TestPatterns) == 0 {
		t.Errorf("profile %q filter %+v", p.Name, p.Filter.TaskGen)
	}
	if err := p.Filter.Validate(); err != nil {
		t.Error(err)
	}
}

// Seed 002's swesmith preset refuses PRs touching files over 10,000 lines.
func TestSWESmithFileBoundFollowsSeed002(t *testing.T) {
	p, err := Load("ccb", "")
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Filter.SWESmith.MaxFileLines; got != 10000 {
		t.Errorf("swesmith max_file_lines = %d, want 10000 (seed 002)", got)
	}
}

// C and C++ tests that sit beside their source outside any test folder
// (Google's db/db_test.cc, util/env_unittest.cc) are tests; a source file
// whose name only ends in "test" (latest.c) or starts with it (testing.c)
// is not.
func TestEmbeddedProfileFindsCTestsBesideTheirSource(t *testing.T) {
	p, err := Load("ccb", "")
	if err != nil {
		t.Fatal(err)
	}
	for f, want := range map[string]string{
		"db/db_test.cc": "test", "util/env_unittest.cc": "test", "src/test_parse.c": "test", "lib/str_tests.cpp": "test",
		"src/latest.c": "source", "src/testing.c": "source", "src/contest.cpp": "source",
	} {
		if got := string(p.Filter.Classify(f)); got != want {
			t.Errorf("Classify(%q) = %s, want %s", f, got, want)
		}
	}
}
