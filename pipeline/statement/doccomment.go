package statement

import (
	"regexp"
	"strings"
)

// declKeywordRe: a line that declares something, before the name it
// declares (func, def, fn, class, a Java or C type and modifiers...).
var declKeywordRe = regexp.MustCompile(`\b(?:func|def|fn|class|type|struct|enum|trait|interface|function|const|let|var|static|void|public|private|protected|export|impl|typedef|module|pub)\b`)

// commentLineRe is a line of a comment block: //, ///, #, /*, *, */.
var commentLineRe = regexp.MustCompile(`^\s*(?://+!?|#(?:[^\[!]|$)|/\*+|\*+/?|\*/)`)

// directiveRe is a C preprocessor line, which starts with # too.
var directiveRe = regexp.MustCompile(`^\s*#\s*(?:include|define|undef|if|ifdef|ifndef|elif|else|endif|pragma|error|line)\b`)

// devNoteRe is a comment that is a note to the project's developers
// ("TODO: Make this strongly-typed"), not the name's contract.
var devNoteRe = regexp.MustCompile(`^(?i:todo|fixme|xxx|hack|note to self)\b`)

// DocComments are the doc comments of decls (the names the tests use that
// the fix adds or changes): the comment block above each declaration, or a
// Python docstring under it, read from the fixed tree, one "`Name`: text"
// line each. Only their contract is shown, never a body.
func DocComments(decls []Decl, files Files) []string {
	if files.Fixed == nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, d := range decls {
		if seen[d.Name] || len(out) >= maxDocComments {
			continue
		}
		seen[d.Name] = true
		src, err := files.Fixed(d.File)
		if err != nil || len(src) > maxSource {
			continue
		}
		if doc := docOf(strings.Split(string(src), "\n"), d.Name); doc != "" && !devNoteRe.MatchString(doc) {
			out = append(out, "`"+d.Name+"`: "+doc)
		}
	}
	return out
}

// docOf finds name's declaration in lines and returns its doc text.
func docOf(lines []string, name string) string {
	for i, l := range lines {
		kw := declKeywordRe.FindStringIndex(l)
		if kw == nil || commentLineRe.MatchString(l) || !containsWord(l[kw[1]:], name) {
			continue
		}
		if doc := commentAbove(lines, i); doc != "" {
			return doc
		}
		if doc := docstringBelow(lines, i); doc != "" {
			return doc
		}
	}
	return ""
}

// commentAbove is the comment block right above line i, decorators and
// attributes skipped, its markers stripped.
func commentAbove(lines []string, i int) string {
	var block []string
	j := i - 1
	for j >= 0 && (strings.HasPrefix(strings.TrimSpace(lines[j]), "@") || strings.HasPrefix(strings.TrimSpace(lines[j]), "#[")) {
		j--
	}
	for ; j >= 0 && commentLineRe.MatchString(lines[j]) && !directiveRe.MatchString(lines[j]); j-- {
		block = append([]string{stripCommentMarker(lines[j])}, block...)
	}
	return strings.TrimSpace(collapse(strings.Join(block, " ")))
}

// docstringBelow is a Python docstring opening on the line after i.
func docstringBelow(lines []string, i int) string {
	if i+1 >= len(lines) {
		return ""
	}
	first := strings.TrimSpace(lines[i+1])
	quote := ""
	for _, q := range []string{`"""`, `'''`} {
		if strings.HasPrefix(first, q) {
			quote = q
		}
	}
	if quote == "" {
		return ""
	}
	var body []string
	rest := strings.TrimPrefix(first, quote)
	for k := i + 1; k < len(lines) && k < i+40; k++ {
		if k > i+1 {
			rest = strings.TrimSpace(lines[k])
		}
		if end := strings.Index(rest, quote); end >= 0 {
			body = append(body, rest[:end])
			return collapse(strings.Join(body, " "))
		}
		body = append(body, rest)
	}
	return "" // unterminated: not a docstring we can read
}

func stripCommentMarker(l string) string {
	l = strings.TrimSpace(l)
	for _, m := range []string{"///", "//!", "//", "/**", "/*", "*/", "*", "#"} {
		if strings.HasPrefix(l, m) {
			l = strings.TrimPrefix(l, m)
			break
		}
	}
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(l), "*/"))
}
