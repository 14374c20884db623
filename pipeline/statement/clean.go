// Package statement assembles a task's problem statement from what the PR
// already says (linked issue, PR body, commit messages, title), strips
// pull-request template noise, adds the Interface section the hidden tests
// need, and flags statements that leak the fix or say too little. It does
// no I/O: callers hand it texts, patches and a file reader.
package statement

import (
	"regexp"
	"strings"
)

var (
	htmlCommentRe = regexp.MustCompile(`(?s)<!--.*?-->`)
	// A checklist item, ticked or not: "- [ ] I have added tests".
	checklistRe = regexp.MustCompile(`^\s*[-*+]\s+\[[ xX]\]\s`)
	// A line that only links issues: "Fixes #12", "Closes: owner/repo#3, #4".
	closingLineRe = regexp.MustCompile(`(?i)^\s*[-*]?\s*(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?|related(?: to)?|refs?|see|part of)\b:?\s*` +
		`(?:(?:[\w.-]+/[\w.-]+)?#\d+|https?://\S+)(?:\s*(?:,|and)?\s*(?:(?:[\w.-]+/[\w.-]+)?#\d+|https?://\S+))*\s*\.?\s*$`)
	trailerRe = regexp.MustCompile(`(?i)^\s*(?:signed-off-by|co-authored-by|reviewed-by|acked-by|tested-by|change-id):`)
	// Bot and tool footers: generated-by lines, review-tool badges, and
	// the "---" rules bots put above them.
	botRe = regexp.MustCompile(`(?i)(generated (?:with|by) \[?(?:claude|copilot|dependabot|renovate|codex)|` +
		`^\s*<img |reviewable\.io|this pr was (?:automatically )?(?:created|generated)|` +
		`^\s*\*\*?(?:dependabot|renovate) |codecov\.io|sourcery|coderabbit)`)
	// Template headings a PR template leaves; kept only when the section
	// under them has text.
	ruleRe    = regexp.MustCompile(`^\s*(?:-{3,}|\*{3,}|_{3,})\s*$`)
	headingRe = regexp.MustCompile(`^\s{0,3}#{1,6}\s+\S|^\s*\*\*[^*]+\*\*:?\s*$`)
)

// Clean removes pull-request template noise from s: HTML comments,
// checklists, lines that only link issues ("Fixes #12"), trailers and bot
// footers, and template headings left with nothing under them. Fenced code
// blocks are kept as written.
func Clean(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = stripComments(s)
	var kept []string
	fence := ""
	for _, line := range strings.Split(s, "\n") {
		trimmed := strings.TrimSpace(line)
		if fence != "" {
			kept = append(kept, line)
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			continue
		}
		if f := fenceOf(trimmed); f != "" {
			fence = f
			kept = append(kept, line)
			continue
		}
		switch {
		case checklistRe.MatchString(line), closingLineRe.MatchString(line), trailerRe.MatchString(line), botRe.MatchString(line):
			continue
		}
		kept = append(kept, line)
	}
	kept = dropEmptySections(kept)
	out := strings.TrimSpace(collapseBlank(strings.Join(kept, "\n")))
	// A trailing rule is what is left of a removed footer.
	for strings.HasSuffix(out, "---") || strings.HasSuffix(out, "***") {
		out = strings.TrimSpace(out[:len(out)-3])
	}
	return out
}

// stripComments removes HTML comments outside code fences.
func stripComments(s string) string {
	if !strings.Contains(s, "<!--") {
		return s
	}
	var b strings.Builder
	fence := ""
	lines := strings.SplitAfter(s, "\n")
	var prose strings.Builder
	flush := func() {
		b.WriteString(htmlCommentRe.ReplaceAllString(prose.String(), ""))
		prose.Reset()
	}
	for _, line := range lines {
		trimmed := strings.TrimSpace(line)
		switch {
		case fence != "":
			b.WriteString(line)
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
		case fenceOf(trimmed) != "":
			flush()
			fence = fenceOf(trimmed)
			b.WriteString(line)
		default:
			prose.WriteString(line)
		}
	}
	flush()
	// An unclosed comment hides everything after it on GitHub too.
	out := b.String()
	if i := strings.Index(out, "<!--"); i >= 0 && !strings.Contains(out[i:], "-->") {
		out = out[:i]
	}
	return out
}

func fenceOf(trimmed string) string {
	for _, f := range []string{"```", "~~~"} {
		if strings.HasPrefix(trimmed, f) {
			return f
		}
	}
	return ""
}

// dropEmptySections removes a heading followed only by blank lines before
// the next heading or the end.
func dropEmptySections(lines []string) []string {
	var out []string
	for i := 0; i < len(lines); i++ {
		if headingRe.MatchString(lines[i]) && !strings.HasPrefix(strings.TrimSpace(lines[i]), "```") {
			j := i + 1
			for j < len(lines) && (strings.TrimSpace(lines[j]) == "" || ruleRe.MatchString(lines[j])) {
				j++
			}
			if j == len(lines) || headingRe.MatchString(lines[j]) {
				continue
			}
		}
		out = append(out, lines[i])
	}
	return out
}

func collapseBlank(s string) string {
	for strings.Contains(s, "\n\n\n") {
		s = strings.ReplaceAll(s, "\n\n\n", "\n\n")
	}
	return s
}
