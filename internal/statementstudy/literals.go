package main

import (
	"regexp"
	"strings"

	"curate/pipeline/unidiff"
)

// quotedRe finds a quoted string on a line, with any of the three quotes.
// Deliberately not the lexers: it checks the Requirements they derive.
var quotedRe = regexp.MustCompile("\"([^\"\\\\\\n]{3,80})\"|'([^'\\\\\\n]{3,80})'|`([^`\\n]{3,80})`")

// fixLiterals are the quoted strings on the tests' added lines that the
// fix adds too (quoted on one of its added lines) and that no removed or
// context line of the fix holds: values the tests check that only the fix
// brings. Placeholders (%s, {}), import-looking paths and strings of
// punctuation are left out, as a reader would.
func fixLiterals(fix, tests []unidiff.File) []string {
	added, old := map[string]bool{}, ""
	var oldText strings.Builder
	for _, f := range fix {
		for _, h := range f.Hunks {
			for _, l := range h.Lines {
				if l.Kind == '+' {
					for _, q := range quoted(l.Text) {
						added[q] = true
					}
				} else {
					oldText.WriteString(l.Text + "\n")
				}
			}
		}
	}
	old = oldText.String()
	seen := map[string]bool{}
	var out []string
	for _, f := range tests {
		if !codeFile(f.Name()) {
			continue
		}
		for _, h := range f.Hunks {
			for _, l := range h.Lines {
				if l.Kind != '+' || importLine(l.Text) {
					continue
				}
				for _, q := range quoted(l.Text) {
					if added[q] && !seen[q] && !strings.Contains(old, q) && meaningfulLiteral(q) {
						seen[q] = true
						out = append(out, q)
					}
				}
			}
		}
	}
	return out
}

func quoted(line string) []string {
	var out []string
	for _, m := range quotedRe.FindAllStringSubmatch(line, -1) {
		out = append(out, m[1]+m[2]+m[3])
	}
	return out
}

var (
	placeholderLikeRe = regexp.MustCompile(`%[a-zA-Z]|\{[^}]*\}|\$\{`)
	importLineRe      = regexp.MustCompile(`^\s*(?:import\b|from\s+\S+\s+import\b|#\s*include\b|use\s|.*\brequire\()`)
	letterRe          = regexp.MustCompile(`[A-Za-z]{2}`)
)

func meaningfulLiteral(q string) bool {
	return !placeholderLikeRe.MatchString(q) && letterRe.MatchString(q)
}

func importLine(s string) bool { return importLineRe.MatchString(s) }

func codeFile(p string) bool {
	for _, ext := range []string{".go", ".py", ".js", ".mjs", ".cjs", ".ts", ".tsx", ".rs", ".java", ".kt", ".c", ".cc", ".cpp", ".h", ".hpp"} {
		if strings.HasSuffix(p, ext) {
			return true
		}
	}
	return false
}

// unstated are the literals the rendered instruction does not hold.
func unstated(literals []string, rendered string) []string {
	var out []string
	for _, q := range literals {
		if !strings.Contains(rendered, q) {
			out = append(out, q)
		}
	}
	return out
}
