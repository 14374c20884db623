package tomlpos

import "testing"

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
