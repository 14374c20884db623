package statement

import (
	"path"
	"regexp"
	"strings"

	"curate/pipeline/unidiff"
)

// What else the project wrote about a change, besides its PR text: the
// lines it adds to a changelog, the documentation it adds, and the doc
// comments of the names the tests use. Each joins the statement as its own
// paragraph (Compose) and is recorded as a source.
const (
	SourceChangelog  = "changelog"
	SourceDocComment = "doc_comment"
	SourceDocs       = "docs"
)

// Caps keep a release's whole changelog or a rewritten manual out of one
// task's statement.
const (
	maxChangelogLines = 10
	maxDocLines       = 30
	maxDocComments    = 12
)

var (
	changelogNameRe = regexp.MustCompile(`(?i)^(?:changelog|changes|news|history|release[-_ ]?notes|whatsnew)(?:\.[a-z]+)?$`)
	changelogDirRe  = regexp.MustCompile(`(?i)(?:^|/)(?:changelog\.d|changes|newsfragments|\.changeset|changelog|release-?notes)/`)
	docExtRe        = regexp.MustCompile(`(?i)\.(?:md|rst|adoc|markdown)$`)
	docDirRe        = regexp.MustCompile(`(?i)(?:^|/)docs?/`)
	// Project housekeeping, not documentation of behaviour.
	notDocRe = regexp.MustCompile(`(?i)(?:^|/)(?:\.github/|contributing|code_of_conduct|security|license|authors|maintainers|pull_request_template|issue_template)`)
	// A changelog's version heading, or a line that is only a reference.
	versionLineRe = regexp.MustCompile(`^\s*(?:#+\s*)?\[?v?\d+\.\d+(?:\.\d+)?[^\s]*\]?(?:\s.*)?$|^\s*(?:=+|-+|\*+)\s*$`)
	entryRefRe    = regexp.MustCompile(`\s*\(?\[?(?:#\d+|[\w.-]+/[\w.-]+#\d+)\]?(?:\([^)]*\))?\)?|\s+(?:by|thanks to)\s+@[\w-]+.*$|\s+in\s+https?://\S+`)
	// reStructuredText references: :issue:`12`, :pr:`3`, :user:`x`.
	roleRefRe = regexp.MustCompile(`:(?:issue|pr|ghpull|gh|bug|user|commit|ticket|cve):` + "`[^`]*`")
	bulletRe  = regexp.MustCompile(`^\s*(?:[-*+]|\d+\.)\s+`)
)

// IsChangelog reports whether p is a changelog, release-notes or news
// file, or a fragment of one (towncrier, changesets).
func IsChangelog(p string) bool {
	return changelogNameRe.MatchString(path.Base(p)) || changelogDirRe.MatchString(p)
}

// isDoc reports whether p is prose documentation: a README, a Markdown,
// reStructuredText or AsciiDoc page anywhere (docs sites live under many
// names), or a text file under a doc folder.
func isDoc(p string) bool {
	base := strings.ToLower(path.Base(p))
	if IsChangelog(p) || notDocRe.MatchString(p) {
		return false
	}
	return strings.HasPrefix(base, "readme") || docExtRe.MatchString(p) || strings.HasSuffix(base, ".txt") && docDirRe.MatchString(p)
}

// ChangelogLines are the entries a change adds to its changelogs, one
// line each (a wrapped entry joined): without version headings, PR, issue
// or author references.
func ChangelogLines(fix []unidiff.File) []string {
	var out []string
	for _, f := range fix {
		if f.Binary || !IsChangelog(f.Name()) {
			continue
		}
		var entries []string
		for _, l := range addedText(f, true) {
			switch {
			case strings.TrimSpace(l) == "" || versionLineRe.MatchString(l):
				entries = append(entries, "") // ends the entry
			case bulletRe.MatchString(l) || len(entries) == 0 || entries[len(entries)-1] == "":
				entries = append(entries, bulletRe.ReplaceAllString(l, ""))
			default: // a wrapped entry's next line
				entries[len(entries)-1] += " " + strings.TrimSpace(l)
			}
		}
		for _, e := range entries {
			e = collapse(entryRefRe.ReplaceAllString(roleRefRe.ReplaceAllString(e, ""), ""))
			e = strings.TrimRight(e, " -:")
			if Words(e) >= 2 && len(out) < maxChangelogLines {
				out = append(out, e)
			}
		}
	}
	return out
}

// DocLines are the lines a change adds to its documentation, as written.
func DocLines(fix []unidiff.File) []string {
	var out []string
	for _, f := range fix {
		if f.Binary || !isDoc(f.Name()) {
			continue
		}
		for _, l := range addedText(f, true) {
			blank := strings.TrimSpace(l) == ""
			if len(out) < maxDocLines && !(blank && (len(out) == 0 || out[len(out)-1] == "")) {
				out = append(out, l)
			}
		}
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

// addedText are f's added lines (blank ones as "" when keepBlank).
func addedText(f unidiff.File, keepBlank bool) []string {
	var out []string
	for _, h := range f.Hunks {
		for _, l := range h.Lines {
			text := strings.TrimRight(l.Text, " \t\r")
			if l.Kind == unidiff.Added && (text != "" || keepBlank) {
				out = append(out, text)
			}
		}
	}
	return out
}
