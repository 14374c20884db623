// Package source holds what both PR sources (local git, GitHub) produce: a
// merged pull request with its changed files and linked issues, and the
// conversion of one into a candidate pipeline.Task.
package source

import (
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"
)

// PR is one merged pull request as a source found it.
type PR struct {
	Repo       string // "owner/name"
	Number     int
	Title      string
	Body       string
	Author     string
	BaseCommit string // first parent of the merge (or squash) commit
	HeadCommit string // the merge (or squash) commit: the merged tree
	MergedAt   time.Time
	// Kind is how it was merged: "merge", "squash", "rebase" (several
	// commits replayed onto the branch) or "github".
	Kind string
	// Commits is how many commits the PR had, when the source knows it
	// (GitHub's commits field; a rebase-merged run in local history).
	Commits int
	// BaseRef is the branch the PR merged into; DefaultBranch the
	// repository's default (both known only from GitHub).
	BaseRef, DefaultBranch string
	// Parents counts the merge commit's parents; more than 2 is an octopus.
	Parents int
	Files   []FileChange
	Issues  []IssueRef
	// IssueText is the linked issue's title and body, when the source
	// could fetch it (GitHub); local git only knows the number.
	IssueText string
}

// FileChange is one changed file with its line counts.
type FileChange struct {
	Path    string `json:"path"`
	OldPath string `json:"old_path,omitempty"` // set on renames
	Added   int    `json:"added"`
	Removed int    `json:"removed"`
	Binary  bool   `json:"binary,omitempty"`
	Test    bool   `json:"test,omitempty"`
	// Lines is the length of the touched file (head version, or base when
	// deleted); 0 when the source did not measure it.
	Lines int `json:"lines,omitempty"`
}

// IssueRef is an issue a PR links; Repo is empty for the PR's own repo.
type IssueRef struct {
	Repo   string `json:"repo,omitempty"`
	Number int    `json:"number"`
}

func (r IssueRef) String() string {
	if r.Repo == "" {
		return fmt.Sprintf("#%d", r.Number)
	}
	return fmt.Sprintf("%s#%d", r.Repo, r.Number)
}

// TaskID is the candidate id "<owner>__<repo>-<pr>" (formats.md §3).
func TaskID(repo string, number int) string {
	return strings.ReplaceAll(repo, "/", "__") + "-" + fmt.Sprint(number)
}

var repoNameRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*$`)

// ValidRepo reports whether s looks like "owner/name".
func ValidRepo(s string) bool { return repoNameRe.MatchString(s) && !strings.Contains(s, "..") }

// DisplayPath renders a path that may not be UTF-8 (git allows any bytes)
// the way git quotes it, so it can be stored and shown safely.
func DisplayPath(p string) string {
	if utf8.ValidString(p) {
		return p
	}
	var b strings.Builder
	for i := 0; i < len(p); {
		r, size := utf8.DecodeRuneInString(p[i:])
		if r == utf8.RuneError && size == 1 {
			fmt.Fprintf(&b, "\\%03o", p[i])
		} else {
			b.WriteString(p[i : i+size])
		}
		i += size
	}
	return b.String()
}
