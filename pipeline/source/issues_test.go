package source

import (
	"reflect"
	"testing"
)

func TestLinkedIssues(t *testing.T) {
	cases := []struct {
		name, text string
		want       []IssueRef
	}{
		{"fixes", "Fixes #12", []IssueRef{{Number: 12}}},
		{"colon and case", "CLOSES: #3, resolved #4", []IssueRef{{Number: 3}, {Number: 4}}},
		{"other repo", "closes other/lib#9", []IssueRef{{Repo: "other/lib", Number: 9}}},
		{"own repo spelled out", "fixed acme/widgets#5", []IssueRef{{Number: 5}}},
		{"url with keyword", "Resolves https://github.com/acme/widgets/issues/77", []IssueRef{{Number: 77}}},
		{"bare url", "see https://github.com/x/y/issues/8 for context", []IssueRef{{Repo: "x/y", Number: 8}}},
		{"no keyword", "related to #12", []IssueRef{}},
		{"self", "fixes #40", []IssueRef{}},
		{"duplicates", "fixes #1\nfixes #1 and closes #1", []IssueRef{{Number: 1}}},
		{"prefix word", "prefixes #2 hotfixes #3", []IssueRef{}},
		{"pull url is not an issue", "https://github.com/acme/widgets/pull/3", []IssueRef{}},
		{"zero", "fixes #0", []IssueRef{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := LinkedIssues(c.text, "acme/widgets", 40)
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("LinkedIssues(%q) = %v, want %v", c.text, got, c.want)
			}
		})
	}
}

func FuzzLinkedIssues(f *testing.F) {
	for _, s := range []string{"Fixes #12", "closes a/b#3", "https://github.com/a/b/issues/9", "fix:\t#99999999999", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, r := range LinkedIssues(s, "acme/widgets", 1) {
			if r.Number <= 0 {
				t.Fatalf("non-positive issue %v from %q", r, s)
			}
			if r.Repo == "" && r.Number == 1 {
				t.Fatalf("self reference from %q", s)
			}
		}
	})
}

func TestDisplayPath(t *testing.T) {
	if got := DisplayPath("src/caf\xe9.py"); got != `src/caf\351.py` {
		t.Errorf("got %q", got)
	}
	if got := DisplayPath("ok/ü.go"); got != "ok/ü.go" {
		t.Errorf("got %q", got)
	}
}
