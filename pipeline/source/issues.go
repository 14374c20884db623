package source

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// closingRe matches GitHub's closing keywords followed by an issue
// reference: "#N", "owner/repo#N" or an issues URL.
var closingRe = regexp.MustCompile(`(?i)\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\b:?[ \t]+` +
	`(?:(#)(\d{1,9})\b|([A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*)#(\d{1,9})\b|https?://github\.com/([A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*)/issues/(\d{1,9})\b)`)

// issueURLRe matches any GitHub issue URL, keyword or not.
var issueURLRe = regexp.MustCompile(`https?://github\.com/([A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*)/issues/(\d{1,9})\b`)

// LinkedIssues finds the issues a PR message links: closing keywords
// ("fixes #12", "closes owner/repo#3", "resolves https://github.com/o/r/issues/4")
// and bare issue URLs. repo is the PR's own "owner/name": references to it
// come back with an empty Repo. self (the PR number) is never its own issue.
// The result is sorted and free of duplicates.
func LinkedIssues(text, repo string, self int) []IssueRef {
	seen := map[IssueRef]bool{}
	add := func(r, num string) {
		n, err := strconv.Atoi(num)
		if err != nil || n <= 0 {
			return
		}
		if strings.EqualFold(r, repo) {
			r = ""
		}
		ref := IssueRef{Repo: r, Number: n}
		if ref.Repo == "" && n == self {
			return
		}
		seen[ref] = true
	}
	for _, m := range closingRe.FindAllStringSubmatch(text, -1) {
		switch {
		case m[1] == "#":
			add("", m[2])
		case m[3] != "":
			add(m[3], m[4])
		case m[5] != "":
			add(m[5], m[6])
		}
	}
	for _, m := range issueURLRe.FindAllStringSubmatch(text, -1) {
		add(m[1], m[2])
	}
	out := make([]IssueRef, 0, len(seen))
	for r := range seen {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Repo != out[j].Repo {
			return out[i].Repo < out[j].Repo
		}
		return out[i].Number < out[j].Number
	})
	return out
}
