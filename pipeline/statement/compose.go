package statement

import (
	"regexp"
	"strings"
)

// docHeadingRe: a heading in added documentation, shown as bold text so
// it never opens a section of the statement (a docs "## Requirements"
// would stand in for the derived one).
var docHeadingRe = regexp.MustCompile(`^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$`)

// Compose is the statement's text from every source, in this order: the
// text Choose picks (linked issue, PR description, commit messages, or
// the title alone), then the change's changelog entries, the doc comments
// of the names the tests use, and the documentation it adds, each as its
// own paragraph and each line only when the text does not already say it.
// sources names where the paragraphs came from, in order; the first is
// the instruction_source (a title-only text with project text after it
// takes the first of those).
func Compose(s Sources) (text string, sources []string) {
	text, src := Choose(s)
	sources = []string{src}
	paras := []string{text}
	if src == SourceTitle {
		sources, paras = nil, nil
	}
	for _, p := range []struct {
		source, intro string
		lines         []string
		bullets       bool
	}{
		{SourceChangelog, "The project's changelog says of this change:", s.Changelog, true},
		{SourceDocComment, "The documentation of the names involved:", s.DocComments, true},
		{SourceDocs, "Documentation the change adds:", s.Docs, false},
	} {
		said := collapse(strings.ToLower(strings.Join(paras, "\n") + "\n" + s.Title))
		var add []string
		for _, l := range p.lines {
			if strings.TrimSpace(l) == "" {
				if !p.bullets && len(add) > 0 {
					add = append(add, "")
				}
				continue
			}
			if strings.Contains(said, collapse(strings.ToLower(l))) {
				continue
			}
			if p.bullets {
				l = "- " + strings.TrimSpace(l)
			} else if m := docHeadingRe.FindStringSubmatch(l); m != nil {
				l = "**" + m[1] + "**"
			}
			add = append(add, l)
		}
		if strings.Count(strings.Join(add, "\n"), "```")%2 == 1 {
			add = append(add, "```") // a fence the cap cut off closes here
		}
		if len(add) > 0 {
			paras = append(paras, p.intro+"\n\n"+strings.Join(add, "\n"))
			sources = append(sources, p.source)
		}
	}
	if len(paras) == 0 {
		return text, []string{SourceTitle}
	}
	return strings.Join(paras, "\n\n"), sources
}
