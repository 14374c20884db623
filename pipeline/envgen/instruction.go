package envgen

import (
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"curate/pipeline/sanitize"
	"curate/pipeline/source"
)

// Instruction renders instruction.md from the linked issue's text, else
// the PR body, else the title. Paths of changed files (and their base
// names) and the names of the PR's tests are redacted: the task must not
// say where the fix goes or which tests check it.
func Instruction(title, issueText, body string, hide []string) string {
	text := issueText
	if strings.TrimSpace(text) == "" {
		text = body
	}
	if strings.TrimSpace(text) == "" {
		text = title
	}
	title = redact(sanitize.Line(title), hide)
	text = redact(sanitize.Text(stripTrailers(text)), hide)
	return fmt.Sprintf("# %s\n\n%s\n\n---\n\nThe repository is checked out in `/app`. Change the code so that it behaves as\ndescribed above. Hidden tests will check the behaviour; keep existing behaviour working.\n",
		strings.TrimSpace(title), strings.TrimSpace(text))
}

var trailerRe = regexp.MustCompile(`(?im)^\s*(signed-off-by|co-authored-by|reviewed-by):.*$`)

func stripTrailers(s string) string { return trailerRe.ReplaceAllString(s, "") }

// redact replaces every word in hide (paths, base names, test names) with
// "[redacted]". Longer words go first so a path is not half-replaced by
// its base name.
func redact(s string, hide []string) string {
	words := map[string]bool{}
	for _, h := range hide {
		if !utf8.ValidString(h) {
			h = source.DisplayPath(h) // as the text would show it, if at all
		}
		if len(h) < 3 {
			continue
		}
		words[h] = true
		if b := path.Base(h); len(b) >= 3 && strings.ContainsAny(b, "._") {
			words[b] = true
		}
	}
	list := make([]string, 0, len(words))
	for w := range words {
		list = append(list, w)
	}
	sort.Slice(list, func(i, j int) bool {
		return len(list[i]) > len(list[j]) || len(list[i]) == len(list[j]) && list[i] < list[j]
	})
	for _, w := range list {
		re := regexp.MustCompile(`(^|[^\w./-])` + regexp.QuoteMeta(w) + `($|[^\w-])`)
		for re.MatchString(s) {
			s = re.ReplaceAllString(s, "${1}[redacted]${2}")
		}
	}
	return s
}
