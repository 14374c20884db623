package unidiff

import (
	"strings"
	"testing"
)

const sample = `diff --git a/src/app.py b/src/app.py
index 1111111..2222222 100644
--- a/src/app.py
+++ b/src/app.py
@@ -1,4 +1,5 @@ def main():
 import os
-x = 1
+x = 2
+y = 3
 print(x)

diff --git a/README.md b/README.md
new file mode 100644
--- /dev/null
+++ b/README.md
@@ -0,0 +1,2 @@
+# title
+text
\ No newline at end of file
`

func TestParse(t *testing.T) {
	files, err := Parse("fix.patch", sample)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 {
		t.Fatalf("got %d files, want 2: %+v", len(files), files)
	}
	f := files[0]
	if f.Name() != "src/app.py" || f.Added != 2 || f.Removed != 1 || len(f.Hunks) != 1 {
		t.Errorf("file 0 = %s +%d -%d hunks %d", f.Name(), f.Added, f.Removed, len(f.Hunks))
	}
	h := f.Hunks[0]
	if h.Header != "def main():" || h.Lines[1].Kind != Removed || h.Lines[1].OldNo != 2 || h.Lines[2].NewNo != 2 || h.Lines[4].NewNo != 4 {
		t.Errorf("hunk = %+v", h)
	}
	if files[1].Name() != "README.md" || files[1].Added != 2 || files[1].OldName != "/dev/null" {
		t.Errorf("file 1 = %+v", files[1])
	}
}

func TestParseWithoutGitHeaders(t *testing.T) {
	p := "--- a/x.go\n+++ b/x.go\n@@ -1 +1 @@\n-a\n+b\n--- a/y.go\n+++ b/y.go\n@@ -3,0 +4 @@\n+c\n"
	files, err := Parse("p", p)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 || files[1].Name() != "y.go" || files[1].Hunks[0].Lines[0].NewNo != 4 {
		t.Fatalf("files = %+v", files)
	}
}

func TestParseErrors(t *testing.T) {
	cases := map[string]string{
		"bad header":  "--- a/x\n+++ b/x\n@@ -1,x +1 @@\n a\n",
		"short hunk":  "--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\nnot a diff line\n",
		"eof in hunk": "--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n",
		"orphan hunk": "@@ -1 +1 @@\n-a\n+b\n",
		"huge count":  "--- a/x\n+++ b/x\n@@ -1,99999999 +1 @@\n",
		"orphan plus": "+++ b/x\n",
	}
	for name, p := range cases {
		_, err := Parse("bug.patch", p)
		if err == nil {
			t.Errorf("%s: no error", name)
			continue
		}
		if !strings.HasPrefix(err.Error(), "bug.patch:") {
			t.Errorf("%s: error %q does not name the patch and line", name, err)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add(sample)
	f.Add("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n")
	f.Add("@@ -0,0 +0,0 @@\n")
	f.Fuzz(func(t *testing.T, s string) {
		files, err := Parse("f", s)
		if err != nil {
			return
		}
		for _, fl := range files {
			add, rem := 0, 0
			for _, h := range fl.Hunks {
				for _, l := range h.Lines {
					switch l.Kind {
					case Added:
						add++
					case Removed:
						rem++
					case Context:
					default:
						t.Fatalf("bad kind %q", l.Kind)
					}
				}
			}
			if add != fl.Added || rem != fl.Removed {
				t.Fatalf("counts %d/%d, lines %d/%d", fl.Added, fl.Removed, add, rem)
			}
		}
	})
}

// git C-quotes unusual names in every header; all readers see them
// unquoted and without prefixes.
func TestQuotedNames(t *testing.T) {
	diff := "diff --git \"a/caf\\303\\251 x.py\" \"b/caf\\303\\251 x.py\"\n--- \"a/caf\\303\\251 x.py\"\n+++ \"b/caf\\303\\251 x.py\"\n@@ -1 +1 @@\n-a\n+b\n" +
		"diff --git a/old.go b/new.go\nsimilarity index 90%\nrename from old.go\nrename to new.go\n"
	for _, read := range []func(string, string) ([]File, error){Parse, Stat} {
		files, err := read("q.patch", diff)
		if err != nil {
			t.Fatal(err)
		}
		if len(files) != 2 || files[0].OldName != "café x.py" || files[0].Name() != "café x.py" || files[1].OldName != "old.go" || files[1].Name() != "new.go" {
			t.Fatalf("names: %+v", files)
		}
		var paths []string
		for _, f := range files {
			for _, p := range f.Paths {
				paths = append(paths, p.Path)
			}
		}
		if strings.Join(paths, "|") != "café x.py|café x.py|café x.py|café x.py|old.go|new.go|old.go|new.go" {
			t.Fatalf("paths %q", paths)
		}
	}
}
