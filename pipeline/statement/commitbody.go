package statement

import (
	"regexp"
	"strings"
)

// A squash commit's body is the list of the PR branch's commits, and most
// of them are about getting the PR merged, not about the change: CI and
// linter fixes, changelog entries, review rounds, reverts of bot commits,
// and the title again as the first item. CleanCommit keeps what describes
// the change. It runs on commit bodies only: in an issue or a PR
// description, "the linter fails with..." is the problem itself.

var (
	// The revert boilerplate git writes ("This reverts commit X." and a
	// merge revert's "reversing changes made to Y.") and merge subjects.
	revertRe = regexp.MustCompile(`(?i)^\s*(?:this reverts commit [0-9a-f]{7,40}\b.*|(?:,\s*)?(?:reversing\s+)?changes made to [0-9a-f]{7,40}\.?\s*)$`)
	mergeRe  = regexp.MustCompile(`^\s*Merge (?:pull request #\d+ from \S+|(?:remote-tracking )?branch '[^']+'(?: of \S+)?(?: into \S+)?)\s*$`)
	// A top-level item of a commit list: "* message" or "- message".
	itemRe = regexp.MustCompile(`^[*-] (\S.*)$`)
	// The first line of an item that only got the PR through review and CI.
	chatterRe = regexp.MustCompile(`(?i)^(?:\[pre-commit\.ci\]|pre-commit\b|\[?ci\]?\b:?|` +
		`(?:fix|fixes|fixed|fixing) (?:the )?(?:ci|lint|linting|linter|typos?|docs? build|build|pre-commit|formatting|format|mypy|coverage|tests?|style|vet|clippy)\b|` +
		`(?:run|ran|apply|applied)? ?(?:black|gofmt|go fmt|goimports|rustfmt|prettier|isort|ruff|clippy|eslint|lint|linter|formatter)\b|` +
		`(?:format|formatting|reformat|lint|linting)(?: code| fixes)?\s*$|` +
		`(?:add|added|update|updated)? ?(?:a )?(?:changelog|news|change ?log|newsfragment)(?: entry| fragment| note)?\s*$|` +
		`(?:address|addressed|addressing|apply|applied) (?:the )?(?:review|pr|code review)?\s*(?:comments?|feedback|suggestions?)|` +
		`review (?:comments?|feedback)|apply suggestions? from code review|silence \S+\s*$|typo\s*$|wip\s*$|docs\s*$|reorder\s*$|` +
		`fixup\b|squash!|(?:add|added|more|update|updated) (?:the )?docs?\s*$|nits?\s*$|clean ?up\s*$|(?:fix|bump|update) msrv\b|` +
		`merge (?:branch|remote-tracking|main|master|upstream))`)
	prRefRe  = regexp.MustCompile(`\s*\(#\d+\)\s*$`)
	skipCIRe = regexp.MustCompile(`(?i)\[(?:skip|ci skip|no) [\w.-]*\]|pre-commit\.ci|\bchangelog\b`)
)

// CleanCommit is Clean for a commit body: it also drops revert and merge
// boilerplate, the items of a commit list that are CI, linter, changelog
// or review chatter (with the lines under them), and an item's first line
// when it only repeats the title (the lines under it stay: they often say
// the most).
func CleanCommit(body, title string) string {
	title = normTitle(title)
	var kept []string
	dropping := false
	marker := byte(0) // the list's top-level marker, '*' or '-': the other one nests
	for _, line := range strings.Split(strings.ReplaceAll(body, "\r\n", "\n"), "\n") {
		if m := itemRe.FindStringSubmatch(line); m != nil && (marker == 0 || line[0] == marker) {
			marker = line[0]
			head := strings.TrimSpace(m[1])
			dropping = chatter(head)
			if !dropping && title != "" && normTitle(head) == title {
				continue
			}
		} else if ruleRe.MatchString(line) {
			dropping = false
		}
		if dropping || revertRe.MatchString(line) || mergeRe.MatchString(line) {
			continue
		}
		kept = append(kept, line)
	}
	return Clean(strings.Join(kept, "\n"))
}

// chatter reports a commit-list item's first line that only got the PR
// through review and CI: a known chatter phrase, a bot's skip marker, a
// revert of the branch's own commit, or a lone word ("Docs", "Grammar").
func chatter(head string) bool {
	if chatterRe.MatchString(head) || skipCIRe.MatchString(head) || strings.HasPrefix(head, `Revert "`) {
		return true
	}
	return len(strings.Fields(head)) == 1 && !strings.ContainsAny(head, "_().`:/")
}

// normTitle compares titles without a trailing "(#123)", case or end
// punctuation.
func normTitle(s string) string {
	s = prRefRe.ReplaceAllString(strings.TrimSpace(s), "")
	return strings.ToLower(strings.TrimRight(s, ".!: "))
}
