package statement

import "strings"

var pythonLex = lexConfig{line: "#", triple: true}

// scanPython reads a Python file's public functions, classes and methods:
// a def or class that begins a line, its indentation placing it in a
// class (a method) or in a function (nested: not public). The signature
// runs from the keyword to the colon that ends the header.
func scanPython(file string, src []byte) ([]decl, error) {
	toks, err := lex(file, src, pythonLex)
	if err != nil {
		return nil, err
	}
	type block struct {
		indent int
		kind   string // class or def
		name   string
	}
	var stack []block
	var out []decl
	nest := 0
	for i := 0; i < len(toks); i++ {
		t := toks[i]
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
		if !t.first || nest > 0 {
			continue
		}
		for len(stack) > 0 && t.col <= stack[len(stack)-1].indent {
			stack = stack[:len(stack)-1]
		}
		k := i
		for k < len(toks) && toks[k].kind == 'i' && toks[k].text == "async" {
			k++
		}
		if k+1 >= len(toks) || toks[k].kind != 'i' || (toks[k].text != "def" && toks[k].text != "class") || toks[k+1].kind != 'i' {
			continue
		}
		kw, name := toks[k].text, toks[k+1].text
		end := headerEnd(toks, k+2)
		inDef := false
		container := ""
		public := !strings.HasPrefix(name, "_")
		for _, b := range stack {
			if b.kind == "def" {
				inDef = true
			}
			if strings.HasPrefix(b.name, "_") {
				public = false
			}
		}
		if len(stack) > 0 && stack[len(stack)-1].kind == "class" {
			container = stack[len(stack)-1].name
		}
		stack = append(stack, block{indent: t.col, kind: kw, name: name})
		if inDef || !public || end <= k {
			continue
		}
		kind := "func"
		switch {
		case kw == "class":
			kind = "class"
		case container != "":
			kind = "method"
		}
		sig := collapse(string(src[toks[i].off:toks[end].off]))
		if container != "" {
			sig += "  # in class " + container
		}
		out = append(out, decl{Decl: Decl{Name: name, Kind: kind, Signature: sig, File: file, Language: "python", Container: container}, Line: toks[k+1].line})
	}
	return out, nil
}

// headerEnd is the index of the ':' closing a def or class header that
// starts at i (0 when there is none).
func headerEnd(toks []tok, i int) int {
	nest := 0
	for ; i < len(toks); i++ {
		switch toks[i].text {
		case "(", "[", "{":
			nest++
		case ")", "]", "}":
			nest--
		case ":":
			if nest == 0 && toks[i].kind == 'p' {
				return i
			}
		}
	}
	return 0
}

// collapse folds runs of whitespace into one space.
func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }
