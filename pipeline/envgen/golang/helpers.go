package golang

import (
	"curate/pipeline/envgen"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path"
	"slices"
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

// helperFileName is the test file curate writes beside the PR's tests.
const helperFileName = "zz_curate_pr_helpers_test.go"

// PRHelpers writes, for each folder whose PR test files use names the
// package lacks at rev, a test file holding those names' declarations as
// the PR's head has them (with the imports they use), so the PR's tests
// compile beside the rest of the package as it is at rev. nil unless
// every such name is found at the head.
func (g golang) PRHelpers(rev, head *envgen.Tree, files []string) map[string]string {
	undefined := g.UndefinedInTests(rev, files)
	if len(undefined) == 0 {
		return nil
	}
	out := map[string]string{}
	for f, names := range undefined {
		dir := path.Dir(f)
		gen := path.Join(dir, helperFileName)
		if _, done := out[gen]; done {
			continue
		}
		text, ok := helperDecls(head, dir, names)
		if !ok {
			return nil
		}
		out[gen] = text
	}
	return out
}

// helperDecls is a Go file declaring names as the head's test files of dir
// do, with the imports those declarations use.
func helperDecls(head *envgen.Tree, dir string, names []string) (string, bool) {
	var pkg string
	var decls []string
	imports := map[string]bool{}
	for _, n := range names {
		found := false
		for _, f := range head.Files {
			if path.Dir(f) != dir || !strings.HasSuffix(f, "_test.go") {
				continue
			}
			src := head.Text(f)
			fset := token.NewFileSet()
			file, err := parser.ParseFile(fset, f, src, parser.SkipObjectResolution)
			if err != nil {
				continue
			}
			for _, d := range file.Decls {
				if !slices.Contains(declNames(d), n) {
					continue
				}
				pkg = file.Name.Name
				decls = append(decls, src[fset.Position(d.Pos()).Offset:fset.Position(d.End()).Offset])
				used := qualifiers(&ast.File{Decls: []ast.Decl{d}})
				for _, im := range file.Imports {
					p := strings.Trim(im.Path.Value, `"`)
					name := path.Base(p)
					if im.Name != nil {
						name = im.Name.Name
					}
					if used[name] {
						imports[im.Path.Value] = true
						if im.Name != nil {
							imports[im.Name.Name+" "+im.Path.Value] = true
							delete(imports, im.Path.Value)
						}
					}
				}
				found = true
				break
			}
			if found {
				break
			}
		}
		if !found {
			return "", false
		}
	}
	var b strings.Builder
	b.WriteString("// Code generated by curate: the helpers the PR's tests call, as the PR's head declares them.\n\npackage " + pkg + "\n")
	if len(imports) > 0 {
		var list []string
		for im := range imports {
			list = append(list, im)
		}
		sort.Strings(list)
		b.WriteString("\nimport (\n\t" + strings.Join(list, "\n\t") + "\n)\n")
	}
	for _, d := range decls {
		b.WriteString("\n" + d + "\n")
	}
	return b.String(), true
}
