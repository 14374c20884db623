package golang

import (
	"curate/pipeline/envgen"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path"
	"sort"
	"strings"
)

// UndefinedInTests names, for each of the test files, the package-level
// names it uses that no file of its package defines in tree (a helper
// the PR's branch had in a sibling test file, renamed on the mainline
// before a squash merge: "undefined: performRequest"). A file that does
// not parse is left to the compiler.
func (golang) UndefinedInTests(tree *envgen.Tree, files []string) map[string][]string {
	out := map[string][]string{}
	declared := map[string]map[string]bool{} // dir -> package clause + name
	for _, f := range files {
		if !strings.HasSuffix(f, "_test.go") {
			continue
		}
		dir := path.Dir(f)
		if declared[dir] == nil {
			declared[dir] = packageNames(tree, dir)
		}
		file, err := parser.ParseFile(token.NewFileSet(), f, tree.Text(f), 0)
		if err != nil || dotImport(file) {
			continue // a dot import's names come from another package
		}
		seen := qualifiers(file) // imported packages' names are resolved by the compiler
		for _, id := range file.Unresolved {
			n := id.Name
			if seen[n] || declared[dir][file.Name.Name+"."+n] || types.Universe.Lookup(n) != nil {
				continue
			}
			seen[n] = true
			out[f] = append(out[f], n)
		}
		sort.Strings(out[f])
	}
	return out
}

// qualifiers are the identifiers used as X in X.Name: imported packages.
func qualifiers(file *ast.File) map[string]bool {
	out := map[string]bool{}
	ast.Inspect(file, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				out[id.Name] = true
			}
		}
		return true
	})
	return out
}

func dotImport(file *ast.File) bool {
	for _, im := range file.Imports {
		if im.Name != nil && im.Name.Name == "." {
			return true
		}
	}
	return false
}

// packageNames are the package-level names the Go files of dir declare,
// keyed "package.name" (a folder holds a package and its _test package).
func packageNames(tree *envgen.Tree, dir string) map[string]bool {
	names := map[string]bool{}
	for _, f := range tree.Files {
		if path.Dir(f) != dir || !strings.HasSuffix(f, ".go") {
			continue
		}
		file, err := parser.ParseFile(token.NewFileSet(), f, tree.Text(f), parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, d := range file.Decls {
			for _, n := range declNames(d) {
				names[file.Name.Name+"."+n] = true
			}
		}
	}
	return names
}

// declNames are the names a top-level declaration introduces.
func declNames(d ast.Decl) []string {
	var out []string
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil {
			out = append(out, d.Name.Name)
		}
	case *ast.GenDecl:
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.ValueSpec:
				for _, n := range s.Names {
					out = append(out, n.Name)
				}
			case *ast.TypeSpec:
				out = append(out, s.Name.Name)
			}
		}
	}
	return out
}
