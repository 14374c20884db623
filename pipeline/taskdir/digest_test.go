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
	da2, _ := Digest(a)
	if da2 == da {
		t.Fatal("a new solution file did not change the digest")
	}
	// Harbor's publisher also covers steps/ and trajectory.json.
	write(t, a, "steps/01/instruction.md", "step one")
	da3, _ := Digest(a)
	if da3 == da2 {
		t.Fatal("a step file did not change the digest")
	}
	write(t, a, "trajectory.json", "{}")
	if da4, _ := Digest(a); da4 == da3 {
		t.Fatal("trajectory.json did not change the digest")
	}
}

// A known digest, computed by hand from Harbor's record format:
// sha256 of the sorted "path NUL sha256(content) LF" records.
func TestDigestKnownValue(t *testing.T) {
	d := t.TempDir()
	write(t, d, "task.toml", "x")
	write(t, d, "tests/test.sh", "y")
	// sha256("x") = 2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881
	// sha256("y") = a1fce4363854ff888cff4b8e7875d600c2682390412a8cf79b37d0b11148b0fa
	// want = sha256("task.toml\x00<sha x>\n" + "tests/test.sh\x00<sha y>\n")
	got, err := Digest(d)
	if err != nil {
		t.Fatal(err)
	}
	const want = "e762c86b71887b690c24f158cb137eb9f02f6fad5db5516665d66ac865487738"
	if got != want {
		t.Fatalf("digest %s, want %s", got, want)
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
