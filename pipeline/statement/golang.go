package statement

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"strings"
)

// scanGo reads a Go file's exported declarations with go/parser; the
// signature is go/printer's rendering without the body.
func scanGo(file string, src []byte) ([]decl, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var out []decl
	add := func(name *ast.Ident, kind string, node any) {
		if !name.IsExported() {
			return
		}
		var b bytes.Buffer
		if err := (&printer.Config{Mode: printer.UseSpaces, Tabwidth: 4}).Fprint(&b, fset, node); err != nil {
			return
		}
		out = append(out, decl{Decl: Decl{Name: name.Name, Kind: kind, Signature: oneLineCap(b.String()), File: file, Language: "go"},
			Line: fset.Position(name.Pos()).Line})
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			kind := "func"
			if d.Recv != nil {
				kind = "method"
				if !exportedRecv(d.Recv) {
					continue
				}
			}
			add(d.Name, kind, &ast.FuncDecl{Recv: d.Recv, Name: d.Name, Type: d.Type})
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					add(s.Name, "type", &ast.GenDecl{Tok: token.TYPE, Specs: []ast.Spec{s}})
				case *ast.ValueSpec:
					for _, n := range s.Names {
						vs := &ast.ValueSpec{Names: []*ast.Ident{n}, Type: s.Type}
						add(n, strings.ToLower(d.Tok.String()), &ast.GenDecl{Tok: d.Tok, Specs: []ast.Spec{vs}})
					}
				}
			}
		}
	}
	return out, nil
}

// exportedRecv reports whether a method's receiver type is exported.
func exportedRecv(fl *ast.FieldList) bool {
	if len(fl.List) == 0 {
		return false
	}
	t := fl.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.Ident:
			return x.IsExported()
		default:
			return false
		}
	}
}

// oneLineCap keeps a printed declaration readable: long struct and
// interface bodies are cut to their first lines.
func oneLineCap(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > 12 {
		lines = append(lines[:11], "    // ...", lines[len(lines)-1])
	}
	return strings.Join(lines, "\n")
}
