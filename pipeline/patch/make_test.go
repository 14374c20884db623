package patch

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"curate/internal/fixtures"
)

func isTest(p string) bool { return strings.Contains(p, "test") }

func revParse(t *testing.T, repo, rev string) string {
	t.Helper()
	out, err := exec.Command("git", "-C", repo, "rev-parse", rev).Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

func extract(t *testing.T, repo, rev string) string {
	t.Helper()
	dir := t.TempDir()
	tar := filepath.Join(dir, "repo.tar")
	if err := Archive(context.Background(), repo, rev, tar); err != nil {
		t.Fatal(err)
	}
	tree := filepath.Join(dir, "tree")
	os.Mkdir(tree, 0o755)
	if out, err := exec.Command("tar", "-xf", tar, "-C", tree).CombinedOutput(); err != nil {
		t.Fatal(string(out))
	}
	return tree
}

func snapshot(t *testing.T, root string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		out[rel] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func applyFile(t *testing.T, tree string, data []byte) {
	t.Helper()
	f := filepath.Join(t.TempDir(), "p.patch")
	os.WriteFile(f, data, 0o644)
	if err := Apply(context.Background(), tree, f, false); err != nil {
		t.Fatal(err)
	}
}

// TestRoundTrip: head + bug.patch is the base's source with head's tests;
// then + fix.patch is the head tree again, byte for byte.
func TestRoundTrip(t *testing.T) {
	py, err := fixtures.PythonRepo(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	gorepo, err := fixtures.GoRepo(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	hist, err := fixtures.GitHistory(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, repo, rev string
	}{
		{"python merge", py.Path, "HEAD~1"},
		{"python squash", py.Path, "HEAD"},
		{"go merge", gorepo.Path, "HEAD~1"},
		{"go squash", gorepo.Path, "HEAD"},
		{"non-UTF-8 name", hist, "HEAD"},
		{"rename", hist, ":/Merge pull request #3"},
		{"binary", hist, ":/Add a logo"},
	}
	ctx := context.Background()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			head := revParse(t, c.repo, c.rev)
			base := revParse(t, c.repo, head+"^1")
			s, err := Make(ctx, c.repo, base, head, isTest, 0)
			if err != nil {
				t.Fatal(err)
			}
			tar := filepath.Join(t.TempDir(), "repo.tar")
			if err := Archive(ctx, c.repo, head, tar); err != nil {
				t.Fatal(err)
			}
			if err := s.Check(ctx, tar); err != nil {
				t.Fatalf("check: %v", err)
			}
			tree := extract(t, c.repo, head)
			want := snapshot(t, tree)
			applyFile(t, tree, s.Bug)
			buggy := snapshot(t, tree)
			baseTree := snapshot(t, extract(t, c.repo, base))
			for _, f := range s.SourceFiles {
				if !bytes.Equal(buggy[f], baseTree[f]) {
					t.Errorf("after bug.patch %q differs from base", f)
				}
			}
			applyFile(t, tree, s.Fix)
			got := snapshot(t, tree)
			if len(got) != len(want) {
				t.Errorf("round trip: %d files, want %d", len(got), len(want))
			}
			for p, data := range want {
				if !bytes.Equal(got[p], data) {
					t.Errorf("round trip: %q differs from head", p)
				}
			}
		})
	}
}

func TestMakeRejectsBigFile(t *testing.T) {
	dir := t.TempDir()
	g, _ := fixtures.NewGit(dir, "acme/big")
	g.Write(map[string]string{"a.py": "x = 1\n"})
	g.Commit("init")
	f, err := os.Create(filepath.Join(dir, "big.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(100 << 20); err != nil { // 100 MB of zeros
		t.Fatal(err)
	}
	f.Close()
	g.Write(map[string]string{"a.py": "x = 2\n"})
	g.Commit("Add data (#1)")
	if g.Err() != nil {
		t.Fatal(g.Err())
	}
	_, err = Make(context.Background(), dir, revParse(t, dir, "HEAD^"), revParse(t, dir, "HEAD"), isTest, 0)
	reasons, ok := IsRejection(err)
	if !ok || len(reasons) != 1 || !strings.Contains(reasons[0], "big.bin is 100.0 MB, over the 10.0 MB cap") {
		t.Fatalf("100 MB file: %v", err)
	}
}

func TestCheckRejectsNonReversible(t *testing.T) {
	py, err := fixtures.PythonRepo(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	head := revParse(t, py.Path, "HEAD~1")
	s, err := Make(ctx, py.Path, revParse(t, py.Path, head+"^"), head, isTest, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Check against a later tree, where the code bug.patch expects moved.
	tar := filepath.Join(t.TempDir(), "repo.tar")
	if err := Archive(ctx, py.Path, "HEAD", tar); err != nil {
		t.Fatal(err)
	}
	err = s.Check(ctx, tar)
	if reasons, ok := IsRejection(err); !ok || !strings.Contains(reasons[0], "bug.patch does not apply") {
		t.Fatalf("want rejection, got %v", err)
	}
}
