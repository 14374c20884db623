package tomlpos

import (
	"errors"
	"strings"
	"testing"
)

func TestPositions(t *testing.T) {
	doc := `top = 1
[docker]
timeout = "10x"
  cpus = -1
[selection]
quotas = [{ dimension = "language", value = "go", min = 3 },
          { dimension = "bogus", value = "x" }]
[[items]]
a = 1
[[items]]
a = 2
[ui.keys]
undo = "ctrl+z"
"quoted key" = 3
`
	got := Positions([]byte(doc))
	for path, want := range map[string]Pos{
		"top": {1, 1}, "docker": {2, 2}, "docker.timeout": {3, 1}, "docker.cpus": {4, 3},
		"selection.quotas": {6, 1}, "selection.quotas.1.dimension": {7, 13}, "selection.quotas.0.min": {6, 51},
		"items.0.a": {9, 1}, "items.1.a": {11, 1}, "ui.keys.undo": {13, 1}, "ui.keys.quoted key": {14, 1},
	} {
		if got[path] != want {
			t.Errorf("%s: got %v, want %v", path, got[path], want)
		}
	}
	if p := Find(got, "selection.quotas.1.max"); p != (Pos{7, 11}) {
		t.Errorf("Find of an unwritten key: got %v, want the inline table's position", p)
	}
}

func FuzzPositions(f *testing.F) {
	f.Add([]byte("a = 1\n[b]\nc = [1, {d = 2}]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		Positions(data) // must not panic on any input
	})
}

// Nesting past MaxDepth is refused at the line that goes too deep, in
// every way TOML can nest; a key path of MaxDepth parts is fine.
func TestCheckDepth(t *testing.T) {
	deep := func(n int, part string) string { return strings.Repeat(part, n) }
	for _, c := range []struct {
		doc  string
		line int
	}{
		{"x = 1\n[" + deep(MaxDepth, "a.") + "b]\ny = 1\n", 2},
		{"x = 1\n\n" + deep(MaxDepth, "a.") + "b = 1\n", 3},
		{"[" + deep(MaxDepth-1, "a.") + "b]\nc.d = 1\n", 2},
		{"[[" + deep(MaxDepth-1, "a.") + "b]]\nc = 1\n", 2},
		{"x = " + deep(MaxDepth, "{a = ") + "1" + deep(MaxDepth, "}") + "\n", 1},
		{"x = " + deep(MaxDepth, "[") + "1" + deep(MaxDepth, "]") + "\n", 1},
	} {
		err := CheckDepth([]byte(c.doc))
		var de *DepthError
		if !errors.As(err, &de) || de.Line != c.line || !strings.Contains(err.Error(), "nests more than 64 levels") {
			t.Errorf("%.40q: err %v, want a depth error on line %d", c.doc, err, c.line)
		}
	}
	ok := "x = " + deep(MaxDepth-1, "{a = ") + "1" + deep(MaxDepth-1, "}") + "\n" + "[" + deep(MaxDepth-2, "a.") + "b]\nc = 1\n"
	if err := CheckDepth([]byte(ok)); err != nil {
		t.Errorf("%d levels refused: %v", MaxDepth, err)
	}
}
