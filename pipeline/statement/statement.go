package statement

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

// Where a statement's text came from (Task.Extra["instruction_source"]).
const (
	SourceIssue   = "issue"       // the linked issue's title and body
	SourcePRBody  = "pr_body"     // the pull request's description
	SourceCommit  = "commit_body" // the squash commit's body, or the PR branch's commit messages
	SourceTitle   = "title"       // only the title
	SourceCurator = "curator"     // written by a person in curate
)

// Sources are the texts a statement may be made from, best first, and
// what else the project wrote about the change (Compose adds those).
type Sources struct {
	Title      string
	IssueText  string
	PRBody     string
	CommitBody string
	// Changelog are the entries the change adds (ChangelogLines).
	Changelog []string
	// DocComments are the doc comments of the names the tests use
	// (DocComments).
	DocComments []string
	// Docs are the lines the change adds to its documentation (DocLines).
	Docs []string
}

// Choose picks the best text the sources hold and says which it was. A
// source counts when, cleaned of template noise, it says more than the
// title and more than a pointer ("see #12", a URL).
func Choose(s Sources) (text, source string) {
	title := strings.TrimSpace(s.Title)
	for _, c := range []struct{ text, source string }{
		{s.IssueText, SourceIssue}, {s.PRBody, SourcePRBody}, {s.CommitBody, SourceCommit},
	} {
		t := Clean(c.text)
		if c.source == SourceCommit {
			t = CleanCommit(c.text, title)
		}
		if t == "" || strings.EqualFold(t, title) || LinkOnly(t) {
			continue
		}
		return t, c.source
	}
	return title, SourceTitle
}

// Statement is what instruction.md says: the title, the chosen text, the
// interface the hidden tests use, and optional hints.
type Statement struct {
	Title  string
	Text   string
	Source string
	// Sources are where the text's paragraphs came from, in order
	// (Compose); Source is the first.
	Sources   []string
	Interface []Decl
	// Requirements are the values the tests check that the fix
	// introduces (Requirements), shown unless the text has its own
	// Requirements section (a curator's).
	Requirements []Requirement
	// Hints are lines for the optional Hints section ([instructions] hints).
	Hints []string
	// Strict are the tests that check values the rendered instruction
	// does not give (Strict); not rendered.
	Strict []StrictTest
	// Underspecified says what the statement leaves unsaid
	// (UnderspecifiedBecause); not rendered.
	Underspecified []string
}

// Decl is one public name the fix adds or changes.
type Decl struct {
	Name      string `json:"name"`
	Kind      string `json:"kind"` // func, method, type, class, const, var, macro
	Signature string `json:"signature"`
	File      string `json:"file"`
	Container string `json:"container,omitempty"` // the class or type a method belongs to
	Language  string `json:"language"`
}

// Footer closes every generated instruction.
const Footer = "The repository is checked out in `/app`. Change the code so that it behaves as\ndescribed above. Hidden tests will check the behaviour; keep existing behaviour working.\n"

// Render writes instruction.md. Paths in hide (changed files, test files,
// test names) are redacted from the title and text: the task must not say
// where the fix goes or which tests check it. The Interface section names
// only declarations, never files.
func Render(st Statement, hide []string) string {
	var b strings.Builder
	title := redact(sanitize.Line(strings.TrimSpace(st.Title)), hide)
	text := strings.TrimSpace(st.Text)
	if st.Source != SourceCurator {
		text = redact(sanitize.Text(text), hide)
	}
	fmt.Fprintf(&b, "# %s\n\n", title)
	if text != "" && !strings.EqualFold(text, strings.TrimSpace(st.Title)) {
		b.WriteString(text + "\n\n")
	}
	if sec := InterfaceSection(st.Interface); sec != "" {
		b.WriteString(sec + "\n")
	}
	if sec := st.requirementsSection(hide); sec != "" {
		b.WriteString(sec + "\n")
	}
	if len(st.Hints) > 0 {
		b.WriteString("## Hints\n\n")
		for _, h := range st.Hints {
			b.WriteString("- " + sanitize.Line(h) + "\n")
		}
		b.WriteString("\n")
	}
	b.WriteString("---\n\n" + Footer)
	return b.String()
}

// InterfaceSection is the markdown the agent reads about the names the
// tests use ("" when there are none).
func InterfaceSection(ds []Decl) string {
	if len(ds) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("## Interface\n\nThe hidden tests use these names; the change must provide them with these signatures:\n\n")
	byLang := map[string][]Decl{}
	var langs []string
	for _, d := range ds {
		if _, ok := byLang[d.Language]; !ok {
			langs = append(langs, d.Language)
		}
		byLang[d.Language] = append(byLang[d.Language], d)
	}
	for _, l := range langs {
		fmt.Fprintf(&b, "```%s\n", fenceLang(l))
		for _, d := range byLang[l] {
			b.WriteString(strings.TrimSpace(sanitize.Text(d.Signature)) + "\n")
		}
		b.WriteString("```\n")
	}
	return b.String()
}

func fenceLang(l string) string {
	if l == "c" || l == "cpp" {
		return "c"
	}
	return l
}

// LinkOnly reports whether text is only a pointer: issue references and
// URLs with at most a few connecting words ("see #12", "Fixes <url>").
func LinkOnly(text string) bool {
	t := linkRe.ReplaceAllString(text, " ")
	if t == text {
		return false
	}
	return len(strings.Fields(t)) <= 3
}

var linkRe = regexp.MustCompile(`https?://\S+|(?:[\w.-]+/[\w.-]+)?#\d+`)

// Redact is text as instruction.md shows it: sanitized, with the words
// in hide redacted.
func Redact(text string, hide []string) string { return redact(sanitize.Text(text), hide) }

// redact replaces every word in hide (paths, base names, test names)
// with words that keep the sentence readable: "a test", "a test file",
// "the affected file" (backquotes around it go too). Longer words go
// first so a path is not half-replaced by its base name.
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
		re := regexp.MustCompile(`(^|[^\w./-])` + "`?" + regexp.QuoteMeta(w) + "`?" + `($|[^\w-])`)
		// Adjacent matches share a delimiter, so a pass can miss every
		// other one; a few passes catch them without looping on a word
		// the replacement itself contains.
		for i := 0; i < 4 && re.MatchString(s); i++ {
			s = re.ReplaceAllString(s, "${1}"+standIn(w)+"${2}")
		}
	}
	for _, r := range foldRes {
		s = r.re.ReplaceAllString(s, r.with)
	}
	return capitalized(standIns.Replace(s))
}

// Stand-ins are placeholders while redacting, so the folding rules see
// one token per hidden word; standIns spells them out.
const (
	standTest     = "\x01T"
	standTestFile = "\x01F"
	standFile     = "\x01A"
)

var standIns = strings.NewReplacer(standTest, "a test", standTestFile, "a test file", standFile, "the affected file")

// standIn is what a hidden word reads as: a test's name, a test file, or
// a file of the fix.
func standIn(w string) string {
	lower := strings.ToLower(path.Base(w))
	isFile := strings.Contains(w, "/") || path.Ext(w) != ""
	switch {
	case !isFile && (strings.HasPrefix(lower, "test") || strings.HasSuffix(lower, "_test") || strings.HasSuffix(w, "Test")):
		return standTest
	case isFile && (strings.Contains(lower, "test") || strings.Contains(lower, "spec")):
		return standTestFile
	}
	return standFile
}

// foldRes fold a list of stand-ins ("a test, a test and a test") into one
// plural and drop the article or noun a stand-in already has ("The TestX
// test" reads "A test": capitalMark keeps the article's capital).
var foldRes = func() []foldRule {
	var out []foldRule
	stand := `(\x01[TFA])`
	out = append(out,
		foldRule{regexp.MustCompile(`\b(?:The|An?) ` + stand), capitalMark + "$1"},
		foldRule{regexp.MustCompile(`\b(?:the|an?) ` + stand), "$1"})
	for _, p := range []struct{ token, plural string }{{standTest, "tests"}, {standTestFile, "test files"}, {standFile, "the affected files"}} {
		t := regexp.QuoteMeta(p.token)
		out = append(out, foldRule{regexp.MustCompile(t + `(?:(?:,|,? and|,? or) ` + capitalMark + `?` + t + `)+`), p.plural})
	}
	return append(out,
		foldRule{regexp.MustCompile(regexp.QuoteMeta(standTest) + ` (?:tests?|functions?|cases?|methods?)\b`), standTest},
		foldRule{regexp.MustCompile(`(\x01[FA]) files?\b`), "$1"})
}()

type foldRule struct {
	re   *regexp.Regexp
	with string
}

// capitalMark asks capitalized to raise the next letter.
const capitalMark = "\x02"

func capitalized(s string) string {
	for {
		i := strings.Index(s, capitalMark)
		if i < 0 {
			return s
		}
		rest := s[i+len(capitalMark):]
		r, n := utf8.DecodeRuneInString(rest)
		s = s[:i] + strings.ToUpper(string(r)) + rest[n:]
	}
}

// requirementsSection is the derived Requirements section, or "" when the
// text already has one of its own.
func (st Statement) requirementsSection(hide []string) string {
	if requirementsRe.MatchString(st.Text) {
		return ""
	}
	return RequirementsSection(st.Requirements, hide)
}

// HasRequirementsSection reports whether text has a Requirements heading
// of its own (a curator's), which the derived section then gives way to.
func HasRequirementsSection(text string) bool { return requirementsRe.MatchString(text) }

var requirementsRe = regexp.MustCompile(`(?im)^#{1,6}\s+requirements\s*$`)

// Problem is the statement as SWE-bench's problem_statement holds it: the
// title and the text, redacted as instruction.md is, with a Requirements
// section (a curator may write one) split off for its own field.
func Problem(st Statement, hide []string) (problem, requirements string) {
	text := strings.TrimSpace(st.Text)
	if st.Source != SourceCurator {
		text = redact(sanitize.Text(text), hide)
	}
	if loc := requirementsRe.FindStringIndex(text); loc != nil {
		rest := text[loc[1]:]
		end := len(rest)
		if next := regexp.MustCompile(`(?m)^#{1,6}\s`).FindStringIndex(rest); next != nil {
			end = next[0]
		}
		requirements = strings.TrimSpace(rest[:end])
		text = strings.TrimSpace(text[:loc[0]] + rest[end:])
	} else if sec := st.requirementsSection(hide); sec != "" {
		requirements = strings.TrimSpace(strings.TrimPrefix(sec, "## Requirements\n"))
	}
	title := redact(sanitize.Line(strings.TrimSpace(st.Title)), hide)
	if text == "" || strings.EqualFold(text, strings.TrimSpace(st.Title)) {
		return title, requirements
	}
	return title + "\n\n" + text, requirements
}
