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
