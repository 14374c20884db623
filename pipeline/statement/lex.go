package statement

import (
	"fmt"
	"strings"
)

// The declaration scanners for Python, JS/TS, Rust, Java and C/C++ read a
// token stream, not lines: comments and string literals (with each
// language's quoting) are recognised first, so a brace in a string or a
// "def" in a comment never looks like code. See docs/statements.md for why
// this and not a grammar library.

// tok is one token: an identifier ('i'), a string or char literal ('s'),
// a number ('n'), a preprocessor line ('#') or punctuation ('p').
type tok struct {
	kind      byte
	text      string
	off, end  int // byte offsets in the source
	line, col int
	first     bool // the first token on its line
}

// lexConfig is one language's comment and string syntax.
type lexConfig struct {
	line         string // line comment opener
	block        bool   // /* */ comments
	nestedBlock  bool   // Rust's nest
	triple       bool   // Python's """ and '''
	template     bool   // JS template literals
	rawStrings   bool   // Rust's r#"..."# and lifetimes
	preprocessor bool   // C's # lines
	regex        bool   // JS regular expression literals
	charQuote    bool   // ' opens a char literal (C, Java, Rust), not a string
	multiline    bool   // "..." may span lines (Rust)
}

// lexError names the file and line of input the lexer cannot read.
func lexError(file string, line int, what string) error {
	return fmt.Errorf("%s:%d: %s", file, line, what)
}

// lex splits src into tokens; an unterminated comment or string is an
// error naming the line it opened on.
func lex(file string, src []byte, c lexConfig) ([]tok, error) {
	s := string(src)
	var out []tok
	line, lineStart := 1, 0
	firstOnLine := true
	emit := func(kind byte, start, end, l, col int) {
		out = append(out, tok{kind: kind, text: s[start:end], off: start, end: end, line: l, col: col, first: firstOnLine})
		firstOnLine = false
	}
	// advance counts newlines in s[from:to].
	advance := func(from, to int) {
		for j := from; j < to; j++ {
			if s[j] == '\n' {
				line++
				lineStart = j + 1
			}
		}
	}
	for i := 0; i < len(s); {
		ch := s[i]
		switch {
		case ch == '\n':
			line++
			lineStart = i + 1
			firstOnLine = true
			i++
			continue
		case ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v':
			i++
			continue
		case c.line != "" && strings.HasPrefix(s[i:], c.line):
			j := strings.IndexByte(s[i:], '\n')
			if j < 0 {
				j = len(s) - i
			}
			i += j
			continue
		case c.block && strings.HasPrefix(s[i:], "/*"):
			start, l := i, line
			depth := 0
			j := i
			for j < len(s) {
				if strings.HasPrefix(s[j:], "/*") {
					depth++
					j += 2
					if !c.nestedBlock && depth > 1 {
						depth = 1
					}
					continue
				}
				if strings.HasPrefix(s[j:], "*/") {
					depth--
					j += 2
					if depth == 0 {
						break
					}
					continue
				}
				j++
			}
			if depth != 0 {
				return nil, lexError(file, l, "comment never closed")
			}
			advance(start, j)
			i = j
			continue
		case c.preprocessor && ch == '#' && strings.TrimSpace(s[lineStart:i]) == "":
			start, l, col := i, line, i-lineStart
			j := i
			for j < len(s) && s[j] != '\n' {
				if s[j] == '\\' && j+1 < len(s) && s[j+1] == '\n' {
					j++
				}
				j++
			}
			advance(start, j)
			emit('#', start, j, l, col)
			i = j
			continue
		}
		col := i - lineStart
		if isIdent(ch, false) {
			j := i + 1
			for j < len(s) && isIdent(s[j], true) {
				j++
			}
			// A string prefix: Python's r"", b'', f"""; Rust's b"", r#""#.
			if j < len(s) && (s[j] == '"' || s[j] == '\'' || s[j] == '#' && c.rawStrings) && isStringPrefix(s[i:j], c) {
				end, err := str(file, s, j, line, c, s[i:j])
				if err != nil {
					return nil, err
				}
				l := line
				advance(i, end)
				emit('s', i, end, l, col)
				i = end
				continue
			}
			emit('i', i, j, line, col)
			i = j
			continue
		}
		if ch >= '0' && ch <= '9' {
			j := i + 1
			for j < len(s) && (isIdent(s[j], true) || s[j] == '.' || s[j] == '\'' && c.charQuote && j+1 < len(s) && s[j+1] >= '0' && s[j+1] <= '9') {
				j++
			}
			emit('n', i, j, line, col)
			i = j
			continue
		}
		if ch == '"' || ch == '\'' || ch == '`' && c.template {
			if ch == '\'' && c.rawStrings && isLifetime(s, i) {
				j := i + 1
				for j < len(s) && isIdent(s[j], true) {
					j++
				}
				emit('i', i, j, line, col)
				i = j
				continue
			}
			end, err := str(file, s, i, line, c, "")
			if err != nil {
				return nil, err
			}
			l := line
			advance(i, end)
			emit('s', i, end, l, col)
			i = end
			continue
		}
		if ch == '/' && c.regex && regexAllowed(out) {
			if end, ok := regexEnd(s, i); ok {
				emit('s', i, end, line, col)
				i = end
				continue
			}
		}
		// Punctuation: the two-character operators the scanners look for.
		n := 1
		for _, op := range []string{"::", "->", "=>", "..."} {
			if strings.HasPrefix(s[i:], op) {
				n = len(op)
				break
			}
		}
		emit('p', i, i+n, line, col)
		i += n
	}
	return out, nil
}

func isStringPrefix(p string, c lexConfig) bool {
	p = strings.ToLower(p)
	if c.triple {
		switch p {
		case "r", "b", "f", "u", "rb", "br", "fr", "rf":
			return true
		}
	}
	if c.rawStrings {
		return p == "r" || p == "b" || p == "br" || p == "c" || p == "cr"
	}
	if c.charQuote && !c.rawStrings { // C/C++: L"", u8"", R"(...)"
		switch p {
		case "l", "u", "u8":
			return true
		}
	}
	return false
}

// isLifetime reports whether the ' at i starts a Rust lifetime ('a, 'static)
// rather than a char literal ('a').
func isLifetime(s string, i int) bool {
	j := i + 1
	if j >= len(s) || !isIdent(s[j], false) {
		return false
	}
	for j < len(s) && isIdent(s[j], true) {
		j++
	}
	return j >= len(s) || s[j] != '\''
}

// str returns the end of the string literal whose quote (or Rust raw #)
// is at i; prefix is its letters (r, b, f...).
func str(file, s string, i, line int, c lexConfig, prefix string) (int, error) {
	raw := strings.ContainsAny(prefix, "rR")
	if c.rawStrings && raw {
		hashes := 0
		for i < len(s) && s[i] == '#' {
			hashes++
			i++
		}
		if i >= len(s) || s[i] != '"' {
			return 0, lexError(file, line, "raw string without its quote")
		}
		closer := "\"" + strings.Repeat("#", hashes)
		j := strings.Index(s[i+1:], closer)
		if j < 0 {
			return 0, lexError(file, line, "raw string never closed")
		}
		return i + 1 + j + len(closer), nil
	}
	q := s[i]
	if c.triple && i+2 < len(s) && s[i+1] == q && s[i+2] == q {
		closer := strings.Repeat(string(q), 3)
		for j := i + 3; j < len(s); j++ {
			if s[j] == '\\' && !raw {
				j++
				continue
			}
			if strings.HasPrefix(s[j:], closer) {
				return j + 3, nil
			}
		}
		return 0, lexError(file, line, "triple-quoted string never closed")
	}
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case q:
			return j + 1, nil
		case '\n':
			if q != '`' && !(c.multiline && q == '"') {
				return 0, lexError(file, line, "string never closed on its line")
			}
		}
	}
	return 0, lexError(file, line, "string never closed")
}

// regexAllowed: in JS a / after an operator or at the start is a regular
// expression, after a value it divides.
func regexAllowed(out []tok) bool {
	if len(out) == 0 {
		return true
	}
	p := out[len(out)-1]
	switch p.kind {
	case 'i':
		switch p.text {
		case "return", "typeof", "case", "in", "of", "void", "delete", "throw", "new", "yield", "await":
			return true
		}
		return false
	case 'p':
		return p.text != ")" && p.text != "]" && p.text != "}"
	}
	return false
}

func regexEnd(s string, i int) (int, bool) {
	class := false
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '[':
			class = true
		case ']':
			class = false
		case '/':
			if !class {
				j++
				for j < len(s) && isIdent(s[j], true) {
					j++
				}
				return j, true
			}
		case '\n':
			return 0, false
		}
	}
	return 0, false
}
