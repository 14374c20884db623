package taskdir

import (
	"os"
	"path/filepath"
	"testing"
)

func write(t *testing.T, root, rel, body string) {
	t.Helper()
	p := filepath.Join(root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestDigest(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	for _, d := range []string{a, b} {
		write(t, d, "task.toml", "[task]\nname='a/b'\n")
		write(t, d, "instruction.md", "do it")
		write(t, d, "tests/test.sh", "exit 0")
		write(t, d, "environment/Dockerfile", "FROM scratch")
	}
	write(t, b, "notes.txt", "outside the digest") // not covered
	da, err := Digest(a)
	if err != nil {
		t.Fatal(err)
	}
	db, _ := Digest(b)
	if da != db {
		t.Fatalf("files outside the covered set changed the digest")
	}
	write(t, b, "tests/test.sh", "exit 1")
	if db2, _ := Digest(b); db2 == da {
		t.Fatal("a changed test did not change the digest")
	}
	write(t, a, "solution/solve.sh", "true")
	if da2, _ := Digest(a); da2 == da {
		t.Fatal("a new solution file did not change the digest")
	}
}

func TestSafeJoin(t *testing.T) {
	cases := []struct {
		rel string
		ok  bool
	}{
		{"tests/test.sh", true}, {"a/../b", true}, {"../x", false}, {"a/../../x", false}, {"/etc/passwd", false}, {"", false}, {"..", false},
	}
	for _, c := range cases {
		_, err := SafeJoin("/root", c.rel)
		if (err == nil) != c.ok {
			t.Errorf("SafeJoin(%q) err=%v, want ok=%v", c.rel, err, c.ok)
		}
	}
}
