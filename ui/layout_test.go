package ui

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The layout holds: a screen imports no other screen and not the shell;
// a component imports no screen and not the shell. Screens talk through
// messages and the shared context.
func TestScreensAndComponentsStayApart(t *testing.T) {
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		if !strings.HasPrefix(dir, "screens/") && !strings.HasPrefix(dir, "components/") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			own := "curate/ui/" + dir
			switch {
			case p == "curate/ui":
				t.Errorf("%s imports the shell", path)
			case strings.HasPrefix(p, "curate/ui/screens/") && p != own:
				t.Errorf("%s imports %s", path, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
