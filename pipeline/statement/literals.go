package statement

import (
	goscanner "go/scanner"
	"go/token"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// literal is one string literal of a source file, unquoted, with the line
// it opens on.
type literal struct {
	value string
	line  int
}

// stringLiterals reads a file's string literals with its language's lexer
// (go/scanner for Go). A file the lexer cannot read gives none.
func stringLiterals(lang, file string, src []byte) []literal {
	if lang == "go" {
		return goLiterals(file, src)
	}
	c, ok := lexConfigOf(lang)
	if !ok {
		return nil
	}
	toks, err := lex(file, src, c)
	if err != nil {
		return nil
	}
	var out []literal
	for i, t := range toks {
		if t.kind == 's' && !namesModule(toks, i) {
			out = append(out, literal{value: unquote(t.text), line: t.line})
		}
	}
	return out
}

// namesModule reports whether the string token at i names a module to
// load (JS/TS `import "m"`, `from "m"`, `require("m")`, `import("m")`): a
// dependency of the file, never a value a test checks.
func namesModule(toks []tok, i int) bool {
	if i == 0 {
		return false
	}
	prev := toks[i-1]
	if prev.kind != 'p' {
		return prev.text == "from" || prev.text == "import"
	}
	if prev.text != "(" || i < 2 {
		return false
	}
	return toks[i-2].text == "require" || toks[i-2].text == "import"
}

func lexConfigOf(lang string) (lexConfig, bool) {
	switch lang {
	case "python":
		return pythonLex, true
	case "javascript", "typescript":
		return jsLang(lang).lex, true
	case "rust":
		return rustLang.lex, true
	case "java":
		return javaLang.lex, true
	case "c", "cpp":
		return cLang(lang).lex, true
	}
	return lexConfig{}, false
}

func goLiterals(file string, src []byte) []literal {
	fset := token.NewFileSet()
	var s goscanner.Scanner
	s.Init(fset.AddFile(file, -1, len(src)), src, nil, 0)
	var out []literal
	importing, block := false, false // inside an import declaration: paths, not values
	for {
		pos, tok, lit := s.Scan()
		switch {
		case tok == token.EOF:
			return out
		case tok == token.IMPORT:
			importing = true
			continue
		case importing && tok == token.LPAREN:
			block = true
			continue
		case importing && (tok == token.RPAREN || !block && tok == token.STRING):
			importing, block = false, false
			continue
		case importing:
			continue
		}
		if tok == token.STRING {
			if v, err := strconv.Unquote(lit); err == nil {
				out = append(out, literal{value: v, line: fset.Position(pos).Line})
			}
		}
	}
}

// unquote strips a literal's prefix (r, b, f, u8, L, R...), its quotes
// (single, triple, backtick, Rust's r#"..."#, C++'s R"d(...)d") and, unless
// it is raw, its common escapes. It is for comparing values a fix adds
// with values tests check, not a full decoder of every language.
func unquote(raw string) string {
	i := strings.IndexAny(raw, "\"'`")
	if i < 0 {
		return raw
	}
	prefix, body := raw[:i], raw[i:]
	isRaw := strings.ContainsAny(prefix, "rR")
	if strings.HasPrefix(prefix, "r") && strings.Contains(prefix, "#") || strings.HasSuffix(prefix, "#") {
		isRaw = true
	}
	hashes := strings.Count(prefix, "#")
	body = strings.TrimSuffix(body, strings.Repeat("#", hashes))
	switch {
	case len(body) >= 6 && (strings.HasPrefix(body, `"""`) || strings.HasPrefix(body, "'''")):
		body = body[3 : len(body)-3]
	case len(body) >= 2:
		body = body[1 : len(body)-1]
	default:
		return ""
	}
	if strings.HasSuffix(prefix, "R") && strings.HasPrefix(raw[i:], `"`) { // C++ R"delim( ... )delim"
		if o := strings.IndexByte(body, '('); o >= 0 {
			if c := strings.LastIndexByte(body, ')'); c > o {
				body = body[o+1 : c]
			}
		}
	}
	if isRaw {
		return body
	}
	return escapes.Replace(body)
}

var escapes = strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\"`, `"`, `\'`, `'`, "\\`", "`", `\\`, `\`, `\r`, "")

// placeholderRe matches what a formatting call fills in: printf verbs,
// {}/{name}/{:?} fields and JS ${...}. A value is compared in the pieces
// between them.
var placeholderRe = regexp.MustCompile(`%[-+# 0]*[0-9*]*(?:\.[0-9*]+)?[a-zA-Z]|\$\{[^}]*\}|\{[^{}\s]{0,30}\}`)

// candidate is one line of a fix's literal as a test could check it: the
// template (placeholders shown as "…") and the pieces between them that
// carry meaning.
type candidate struct {
	template string
	pieces   []string
}

// candidatesOf splits a literal into lines and each line into the pieces
// between placeholders; a line with no meaningful piece gives nothing.
func candidatesOf(v string) []candidate {
	var out []candidate
	for _, line := range strings.Split(v, "\n") {
		var c candidate
		for _, p := range placeholderRe.Split(line, -1) {
			if p = strings.TrimSpace(p); meaningful(p) {
				c.pieces = append(c.pieces, p)
			}
		}
		if len(c.pieces) > 0 {
			c.template = strings.TrimSpace(placeholderRe.ReplaceAllString(line, "…"))
			out = append(out, c)
		}
	}
	return out
}

// minFragment is the shortest value worth a requirement: shorter ones
// ("ok", ": ") match by chance.
const minFragment = 4

func meaningful(p string) bool {
	if utf8.RuneCountInString(p) < minFragment || !utf8.ValidString(p) {
		return false
	}
	letters := 0
	for _, r := range p {
		if unicode.IsLetter(r) {
			letters++
		}
		if unicode.IsControl(r) {
			return false
		}
	}
	return letters >= 2
}
