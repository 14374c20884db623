package statement

import "strings"

// braceLang is a brace-delimited language: its lexer and the classifier
// that reads one declaration (the tokens before a '{' or ';' at the
// current scope) into a decl and the scope its braces open.
type braceLang struct {
	name     string
	lex      lexConfig
	classify func(c *classified, toks []tok, sc *scope, src string)
	// newlineEnds: a line break can end a statement (JS/TS without
	// semicolons).
	newlineEnds bool
}

// scope is what a '{' opened: a namespace-like scope whose declarations
// are read, a class-like one (methods get its name), or a body skipped.
type scope struct {
	kind   byte // 't' transparent, 'c' class, 'b' body
	name   string
	public bool // members are public without a keyword (Rust trait, Java interface, C++ struct)
	access bool // C++: the current access is public
}

// classified is a classifier's answer.
type classified struct {
	decl *decl
	open scope // the scope a following '{' opens
}

// scanBraces reads declarations from a brace language. Bodies (functions,
// initialisers) are skipped whole; declarations are read at file,
// namespace and class scope.
func scanBraces(file string, src []byte, l braceLang) ([]decl, error) {
	toks, err := lex(file, src, l.lex)
	if err != nil {
		return nil, err
	}
	text := string(src)
	stack := []scope{{kind: 't'}}
	var out []decl
	var pending []tok
	nest := 0 // ( [ and braces inside them
	finish := func(term string) scope {
		sc := &stack[len(stack)-1]
		c := classified{open: scope{kind: 'b'}}
		if len(pending) > 0 {
			l.classify(&c, pending, sc, text)
		}
		if c.decl != nil {
			c.decl.File, c.decl.Language = file, l.name
			if strings.HasSuffix(c.decl.Signature, ";") && term == ";" {
				c.decl.Signature = strings.TrimSpace(strings.TrimSuffix(c.decl.Signature, ";"))
			}
			out = append(out, *c.decl)
		}
		pending = pending[:0]
		return c.open
	}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		top := stack[len(stack)-1]
		if top.kind == 'b' {
			switch {
			case t.kind == 'p' && t.text == "{":
				stack = append(stack, scope{kind: 'b'})
			case t.kind == 'p' && t.text == "}":
				stack = stack[:len(stack)-1]
			}
			continue
		}
		if t.kind == '#' {
			pending = pending[:0]
			continue
		}
		if t.kind == 'p' && nest == 0 {
			switch t.text {
			case ";":
				finish(";")
				continue
			case "{":
				stack = append(stack, finish("{"))
				continue
			case "}":
				pending = pending[:0]
				if len(stack) > 1 {
					stack = stack[:len(stack)-1]
				}
				continue
			}
		}
		if l.newlineEnds && t.first && nest == 0 && len(pending) > 0 && startsStatement(t) && !continues(pending[len(pending)-1]) {
			finish(";")
		}
		if t.kind == 'p' {
			switch t.text {
			case "(", "[", "{":
				nest++
			case ")", "]", "}":
				if nest > 0 {
					nest--
				}
			}
		}
		pending = append(pending, t)
	}
	return out, nil
}

// startsStatement: a JS line starting with a declaration keyword or a
// name starts a new statement.
func startsStatement(t tok) bool { return t.kind == 'i' }

// continues: a line ending in an operator or comma goes on.
func continues(t tok) bool {
	if t.kind != 'p' {
		return false
	}
	return strings.Contains("=,.+-*/&|?:<(![", t.text) || t.text == "=>"
}

// sigOf is the source text of toks, whitespace collapsed.
func sigOf(toks []tok, src string) string {
	if len(toks) == 0 {
		return ""
	}
	return collapse(src[toks[0].off:toks[len(toks)-1].end])
}

// index finds the first identifier text among toks at paren depth 0.
func index(toks []tok, words ...string) int {
	nest := 0
	for i, t := range toks {
		if t.kind == 'p' {
			switch t.text {
			case "(", "[", "<":
				if t.text != "<" {
					nest++
				}
			case ")", "]":
				nest--
			}
			continue
		}
		if nest == 0 && t.kind == 'i' {
			for _, w := range words {
				if t.text == w {
					return i
				}
			}
		}
	}
	return -1
}

func has(toks []tok, w string) bool { return index(toks, w) >= 0 }

// groups lists the top-level paren groups: the index of each '(' and its
// matching ')'.
func groups(toks []tok) [][2]int {
	var out [][2]int
	nest, open := 0, -1
	for i, t := range toks {
		if t.kind != 'p' {
			continue
		}
		switch t.text {
		case "(", "[", "{":
			if nest == 0 && t.text == "(" {
				open = i
			}
			nest++
		case ")", "]", "}":
			nest--
			if nest == 0 && t.text == ")" && open >= 0 {
				out = append(out, [2]int{open, i})
				open = -1
			}
		}
	}
	return out
}

// nameBefore is the identifier before index i, skipping a generic
// parameter list (<T>), or -1.
func nameBefore(toks []tok, i int) int {
	j := i - 1
	if j >= 0 && toks[j].text == ">" {
		depth := 0
		for ; j >= 0; j-- {
			switch toks[j].text {
			case ">":
				depth++
			case "<":
				depth--
			}
			if depth == 0 {
				break
			}
		}
		j--
	}
	if j >= 0 && toks[j].kind == 'i' {
		return j
	}
	return -1
}

// stripAttributes drops leading attributes and annotations: Rust's
// #[...], Java's @Name(...), TS decorators.
func stripAttributes(toks []tok) []tok {
	for len(toks) > 0 {
		switch {
		case toks[0].text == "#" && len(toks) > 1 && (toks[1].text == "[" || toks[1].text == "!"):
			toks = skipGroup(toks[1:], "[", "]")
		case toks[0].text == "@" && len(toks) > 1 && toks[1].kind == 'i' && toks[1].text != "interface":
			toks = toks[2:]
			for len(toks) > 1 && toks[0].text == "." && toks[1].kind == 'i' {
				toks = toks[2:]
			}
			if len(toks) > 0 && toks[0].text == "(" {
				toks = skipGroup(toks, "(", ")")
			}
		default:
			return toks
		}
	}
	return toks
}

// skipGroup drops toks up to and including the close of the first open.
func skipGroup(toks []tok, open, close string) []tok {
	depth := 0
	for i, t := range toks {
		switch t.text {
		case open:
			depth++
		case close:
			depth--
			if depth == 0 {
				return toks[i+1:]
			}
		}
	}
	return nil
}

func mkdecl(name tok, kind string, sig string, sc *scope) *decl {
	container := ""
	if sc.kind == 'c' {
		container = sc.name
		if kind == "func" {
			kind = "method"
		}
	}
	return &decl{Decl: Decl{Name: name.text, Kind: kind, Signature: sig, Container: container}, Line: name.line}
}
