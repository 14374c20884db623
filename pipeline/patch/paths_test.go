package patch

import (
	"reflect"
	"strings"
	"testing"
)

func TestPaths(t *testing.T) {
	diff := "diff --git a/src/x.py b/src/x.py\nindex 1..2 100644\n--- a/src/x.py\n+++ b/src/x.py\n@@ -1 +1 @@\n--- not a header\n+new\n" +
		"diff --git \"a/caf\\351.py\" \"b/caf\\351.py\"\nnew file mode 100644\n--- /dev/null\n+++ \"b/caf\\351.py\"\n@@ -0,0 +1 @@\n+x\n" +
		"diff --git a/old name.py b/new name.py\nrename from old name.py\nrename to new name.py\n"
	got, err := Paths("fix.patch", []byte(diff))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"src/x.py", "caf\xe9.py", "old name.py", "new name.py"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Paths = %q, want %q", got, want)
	}
}

func TestPathsRefusesEscapes(t *testing.T) {
	for name, diff := range map[string]string{
		"dotdot":       "diff --git a/../evil b/../evil\n",
		"nested":       "--- a/x\n+++ b/src/../../evil\n",
		"absolute":     "--- /etc/passwd\n+++ /etc/passwd\n",
		"rename":       "diff --git a/x b/y\nrename from x\nrename to ../y\n",
		"dotgit":       "diff --git a/.git/config b/.git/config\n",
		"quoted":       "diff --git \"a/..\\057x\" \"b/..\\057x\"\n",
		"unterminated": "diff --git \"a/x b/x\n",
	} {
		_, err := Paths("bug.patch", []byte(diff))
		if err == nil {
			t.Errorf("%s: accepted", name)
			continue
		}
		if !strings.HasPrefix(err.Error(), "bug.patch:") {
			t.Errorf("%s: error does not name the file and line: %v", name, err)
		}
	}
}

func FuzzPaths(f *testing.F) {
	f.Add([]byte("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"))
	f.Add([]byte("diff --git \"a/\\351\" \"b/\\351\"\nrename from a\nrename to b\n"))
	f.Add([]byte("--- a/../x\n+++ b/x\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		paths, err := Paths("f.patch", data)
		if err != nil {
			return
		}
		for _, p := range paths {
			if CheckPath(p) != nil {
				t.Fatalf("unsafe path %q returned", p)
			}
		}
	})
}
