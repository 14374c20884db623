package statement

import "strings"

// withContainer notes a method's class after its signature, as a comment
// in the language's own syntax.
func withContainer(sig string, sc *scope) string {
	if sc.kind == 'c' && sc.name != "" {
		return sig + "  // in " + sc.name
	}
	return sig
}

var rustLang = braceLang{name: "rust", lex: lexConfig{line: "//", block: true, nestedBlock: true, rawStrings: true, charQuote: true, multiline: true},
	classify: classifyRust}

// classifyRust reads fn, struct, enum, trait, type, const and static
// items marked pub (a trait's methods are public with it), and opens impl
// blocks as the scope of their type's methods.
func classifyRust(c *classified, toks []tok, sc *scope, src string) {
	toks = stripAttributes(toks)
	if len(toks) == 0 {
		return
	}
	// pub(crate) and pub(super) are not the crate's interface.
	pub := toks[0].text == "pub" && (len(toks) < 2 || toks[1].text != "(") || sc.public
	switch k := index(toks, "impl"); {
	case k >= 0 && index(toks, "fn") < 0:
		rest := toks[k+1:]
		if len(rest) > 0 && rest[0].text == "<" {
			rest = skipGroup(rest, "<", ">")
		}
		if f := index(rest, "for"); f >= 0 {
			rest = rest[f+1:]
		}
		for len(rest) > 2 && rest[1].text == "::" {
			rest = rest[2:]
		}
		if len(rest) > 0 && rest[0].kind == 'i' {
			c.open = scope{kind: 'c', name: rest[0].text, public: false}
		}
		return
	case index(toks, "mod") >= 0 && len(toks) <= 3:
		c.open = scope{kind: 't'}
		return
	case toks[0].text == "extern" && len(toks) <= 2:
		c.open = scope{kind: 't'}
		return
	}
	if f := index(toks, "fn"); f >= 0 && f+1 < len(toks) && toks[f+1].kind == 'i' {
		if pub {
			c.decl = mkdecl(toks[f+1], "func", withContainer(sigOf(toks, src), sc), sc)
		}
		return
	}
	for _, kw := range []string{"struct", "enum", "union", "trait", "type", "const", "static"} {
		k := index(toks, kw)
		if k < 0 || k+1 >= len(toks) || toks[k+1].kind != 'i' {
			continue
		}
		if kw == "trait" {
			c.open = scope{kind: 'c', name: toks[k+1].text, public: pub}
		}
		if !pub {
			return
		}
		end := len(toks)
		if e := index(toks[k:], "where"); e >= 0 {
			end = k + e
		}
		for j := k; j < end; j++ {
			if toks[j].text == "=" || kw != "const" && kw != "static" && kw != "type" && toks[j].text == "(" {
				end = j
				break
			}
		}
		kind := map[string]string{"struct": "type", "enum": "type", "union": "type", "trait": "type", "type": "type", "const": "const", "static": "var"}[kw]
		c.decl = mkdecl(toks[k+1], kind, sigOf(toks[:end], src), sc)
		return
	}
}

var javaLang = braceLang{name: "java", lex: lexConfig{line: "//", block: true, charQuote: true, triple: true}, classify: classifyJava}

// classifyJava reads the classes, interfaces, enums, records, methods,
// constructors and static final constants that are not private: a Java
// test lives in its code's package, so package-private names are its
// interface too (javapoet's tests call LineWrapper.zeroWidthSpace).
func classifyJava(c *classified, toks []tok, sc *scope, src string) {
	toks = stripAttributes(toks)
	if len(toks) == 0 || toks[0].text == "package" || toks[0].text == "import" {
		return
	}
	pub := !has(toks, "private")
	if k := index(toks, "class", "interface", "enum", "record"); k >= 0 && k+1 < len(toks) && toks[k+1].kind == 'i' && !isCall(toks, k) {
		name := toks[k+1]
		c.open = scope{kind: 'c', name: name.text, public: toks[k].text == "interface"}
		if pub {
			end := len(toks)
			if toks[k].text == "record" {
				if g := groups(toks); len(g) > 0 {
					end = g[0][1] + 1
				}
			}
			c.decl = mkdecl(name, "class", sigOf(toks[:end], src), sc)
			c.decl.Kind = "class"
			c.decl.Container = ""
		}
		return
	}
	g := groups(toks)
	if len(g) > 0 && index(toks[:g[0][0]], "=") < 0 && !has(toks[:g[0][0]], "new") {
		n := nameBefore(toks, g[0][0])
		if n < 0 || javaKeyword[toks[n].text] || !pub {
			return
		}
		kind := "func"
		if toks[n].text == sc.name {
			kind = "constructor"
		}
		c.decl = mkdecl(toks[n], kind, withContainer(sigOf(toks, src), sc), sc)
		if kind == "constructor" {
			c.decl.Kind = kind
		}
		return
	}
	if pub && has(toks, "static") && has(toks, "final") {
		end := len(toks)
		if e := index(toks, "="); e >= 0 {
			end = e
		}
		if n := end - 1; n >= 0 && toks[n].kind == 'i' {
			c.decl = mkdecl(toks[n], "const", withContainer(sigOf(toks[:end], src), sc), sc)
			c.decl.Kind = "const"
		}
	}
}

// isCall: "X.class" or "new Foo()" reads the keyword in an expression.
func isCall(toks []tok, k int) bool { return k > 0 && toks[k-1].text == "." }

var javaKeyword = map[string]bool{"if": true, "for": true, "while": true, "switch": true, "catch": true, "synchronized": true,
	"return": true, "new": true, "throw": true, "super": true, "this": true, "try": true}

func jsLang(name string) braceLang {
	return braceLang{name: name, lex: lexConfig{line: "//", block: true, template: true, regex: true}, classify: classifyJS, newlineEnds: true}
}

var jsModifiers = map[string]bool{"static": true, "async": true, "get": true, "set": true, "public": true, "protected": true,
	"readonly": true, "override": true, "abstract": true, "declare": true, "accessor": true, "*": true}

// classifyJS reads functions, classes, interfaces, type aliases, enums and
// top-level const/let/var (exported or not: CommonJS exports by
// assignment), exports.name = ..., and class methods that are not private.
func classifyJS(c *classified, toks []tok, sc *scope, src string) {
	toks = stripAttributes(toks)
	if len(toks) == 0 || toks[0].text == "import" {
		return
	}
	if sc.kind == 'c' {
		i := 0
		for i < len(toks) && jsModifiers[toks[i].text] && i+1 < len(toks) && toks[i+1].text != "(" {
			i++
		}
		if i >= len(toks) || toks[i].kind != 'i' || has(toks[:i], "private") || strings.HasPrefix(toks[i].text, "_") {
			return
		}
		j := i + 1
		if j < len(toks) && toks[j].text == "?" {
			j++
		}
		if j < len(toks) && (toks[j].text == "(" || toks[j].text == "<") {
			kind := "func"
			if toks[i].text == "constructor" {
				kind = "constructor"
			}
			c.decl = mkdecl(toks[i], kind, withContainer(sigOf(toks, src), sc), sc)
			if kind == "constructor" {
				c.decl.Kind = kind
			}
		}
		return
	}
	if k := index(toks, "class"); k >= 0 && k+1 < len(toks) && toks[k+1].kind == 'i' && (k == 0 || toks[k-1].text != "=") {
		c.open = scope{kind: 'c', name: toks[k+1].text}
		c.decl = mkdecl(toks[k+1], "class", sigOf(toks, src), sc)
		return
	}
	if k := index(toks, "namespace", "module"); k == 0 || k == 1 && toks[0].text == "export" || k == 1 && toks[0].text == "declare" {
		c.open = scope{kind: 't'}
		return
	}
	if k := index(toks, "function"); k >= 0 && (k == 0 || toks[k-1].kind == 'i') {
		n := k + 1
		if n < len(toks) && toks[n].text == "*" {
			n++
		}
		if n < len(toks) && toks[n].kind == 'i' && !strings.HasPrefix(toks[n].text, "_") {
			c.decl = mkdecl(toks[n], "func", sigOf(toks, src), sc)
		}
		return
	}
	if k := index(toks, "interface", "type", "enum"); k >= 0 && k <= 2 && k+1 < len(toks) && toks[k+1].kind == 'i' {
		end := len(toks)
		if e := index(toks, "="); e >= 0 && toks[k].text == "type" && len(toks) > 40 {
			end = e
		}
		c.decl = mkdecl(toks[k+1], "type", sigOf(toks[:end], src), sc)
		return
	}
	if k := index(toks, "const", "let", "var"); k >= 0 && k <= 2 && k+1 < len(toks) && toks[k+1].kind == 'i' && !strings.HasPrefix(toks[k+1].text, "_") {
		end := len(toks)
		if e := index(toks, "=>"); e >= 0 {
			end = e + 1
		} else if e := index(toks, "="); e >= 0 {
			end = e
		}
		c.decl = mkdecl(toks[k+1], "const", sigOf(toks[:end], src), sc)
		return
	}
	// exports.name = ..., module.exports.name = ...
	for i := 0; i+3 < len(toks); i++ {
		if toks[i].text == "exports" && toks[i+1].text == "." && toks[i+2].kind == 'i' && toks[i+3].text == "=" && !strings.HasPrefix(toks[i+2].text, "_") {
			end := i + 3 // exports.name
			if g := groups(toks); len(g) > 0 && index(toks, "function") >= 0 {
				end = g[0][1] + 1 // exports.name = function (params)
			}
			c.decl = mkdecl(toks[i+2], "func", sigOf(toks[:end], src), sc)
			return
		}
	}
}

func cLang(name string) braceLang {
	return braceLang{name: name, lex: lexConfig{line: "//", block: true, preprocessor: true, charQuote: true}, classify: classifyC}
}

var cNotNames = map[string]bool{"if": true, "for": true, "while": true, "switch": true, "return": true, "sizeof": true,
	"noexcept": true, "throw": true, "alignas": true, "decltype": true, "requires": true, "__attribute__": true,
	"__declspec": true, "static_assert": true, "defined": true, "operator": true}

// classifyC reads C and C++ functions (declared in a header or defined
// without static), classes, structs, unions, enums and typedefs;
// namespaces and extern "C" blocks are read through, class members follow
// public:/private: sections.
func classifyC(c *classified, toks []tok, sc *scope, src string) {
	// Access sections in a class: "public:" starts the statement.
	for len(toks) >= 2 && toks[1].text == ":" && (toks[0].text == "public" || toks[0].text == "private" || toks[0].text == "protected") {
		sc.access = toks[0].text == "public"
		toks = toks[2:]
	}
	if len(toks) > 0 && toks[0].text == "template" && len(toks) > 1 && toks[1].text == "<" {
		toks = skipGroup(toks[1:], "<", ">")
	}
	if len(toks) == 0 {
		return
	}
	visible := sc.kind != 'c' || sc.access
	switch {
	case toks[0].text == "namespace" || toks[0].text == "inline" && len(toks) > 1 && toks[1].text == "namespace":
		c.open = scope{kind: 't'}
		return
	case toks[0].text == "extern" && len(toks) == 2 && toks[1].kind == 's':
		c.open = scope{kind: 't'}
		return
	}
	g := groups(toks)
	if k := index(toks, "class", "struct", "union", "enum"); k >= 0 && (len(g) == 0 || k < g[0][0]) && toks[0].text != "typedef" {
		n := k + 1
		if n < len(toks) && (toks[n].text == "class" || toks[n].text == "struct") {
			n++ // enum class
		}
		for n < len(toks) && toks[n].kind == 'i' && (strings.HasPrefix(toks[n].text, "__") || isMacroName(toks[n].text)) && n+1 < len(toks) && toks[n+1].kind == 'i' {
			n++ // an export macro: class YAML_CPP_API Node
		}
		// "struct x *p;" declares a variable, not the struct.
		if n < len(toks) && toks[n].kind == 'i' && index(toks, "=") < 0 && (n+1 == len(toks) || toks[n+1].text == ":" || toks[n+1].text == "final") {
			if toks[k].text == "class" || toks[k].text == "struct" {
				c.open = scope{kind: 'c', name: toks[n].text, access: toks[k].text == "struct"}
			}
			if visible && len(g) == 0 {
				end := len(toks)
				if e := index(toks, ":"); e > n {
					end = e
				}
				c.decl = mkdecl(toks[n], "type", sigOf(toks[:end], src), sc)
				c.decl.Kind, c.decl.Container = "type", ""
			}
			return
		}
	}
	if toks[0].text == "typedef" && len(g) == 0 {
		if n := len(toks) - 1; n > 0 && toks[n].kind == 'i' {
			c.decl = mkdecl(toks[n], "type", sigOf(toks, src), sc)
			c.decl.Kind = "type"
		}
		return
	}
	// A function: the last paren group preceded by a name that is not a
	// keyword or attribute (CJSON_PUBLIC(type) name(params) reads name).
	for i := len(g) - 1; i >= 0; i-- {
		n := nameBefore(toks, g[i][0])
		if n < 0 || cNotNames[toks[n].text] {
			continue
		}
		if index(toks[:n], "=") >= 0 || toks[0].text == "return" || !visible {
			return
		}
		if sc.kind != 'c' && has(toks[:n], "static") {
			return // internal linkage
		}
		if n > 0 && toks[n-1].text == "~" {
			return
		}
		d := mkdecl(toks[n], "func", withContainer(sigOf(toks, src), sc), sc)
		if n >= 2 && toks[n-1].text == "::" && toks[n-2].kind == 'i' {
			d.Container, d.Kind = toks[n-2].text, "method"
		}
		c.decl = d
		return
	}
}

// isMacroName: an all-capitals name (YAML_CPP_API, CJSON_PUBLIC).
func isMacroName(s string) bool {
	return len(s) > 2 && strings.ToUpper(s) == s && strings.ContainsAny(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
}
