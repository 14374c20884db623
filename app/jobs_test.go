package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"curate/internal/fixtures"
	"curate/pipeline/source/gitmine"
)

func TestImportKindOf(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{"a.jsonl": "", "m.JSON": "{}", "notes.txt": ""} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct{ path, kind, err string }{
		{dir, ImportKindHarbor, ""},
		{filepath.Join(dir, "a.jsonl"), ImportKindSWEbench, ""},
		{filepath.Join(dir, "m.JSON"), ImportKindManifest, ""},
		{filepath.Join(dir, "notes.txt"), "", "want a folder of Harbor task dirs"},
		{filepath.Join(dir, "missing"), "", "no such file"},
	} {
		kind, err := ImportKindOf(c.path)
		if kind != c.kind || (c.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%s: %q %v, want %q %q", c.path, kind, err, c.kind, c.err)
		}
	}
}

func TestMineSource(t *testing.T) {
	for _, c := range []struct {
		src          string
		local, isErr bool
	}{{t.TempDir(), true, false}, {"spf13/cobra", false, false}, {"not a repo", false, true}, {"a/b/c", false, true}} {
		local, err := MineSource(c.src)
		if local != c.local || (err != nil) != c.isErr {
			t.Errorf("%q: local %v err %v", c.src, local, err)
		}
	}
}

// progressLog records progress calls (they come from several goroutines).
type progressLog struct {
	mu   sync.Mutex
	last map[string]Progress
	n    int
}

func (l *progressLog) f(p Progress) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.last == nil {
		l.last = map[string]Progress{}
	}
	if q, ok := l.last[p.Stage]; !ok || p.Done > q.Done {
		l.last[p.Stage] = p
	}
	l.n++
}

// TestProgressReachesTheEnd: import, mine and build report every item,
// ending at done == total, and the results are the same as without a
// listener.
func TestProgressReachesTheEnd(t *testing.T) {
	ws := openTestWorkspace(t)
	ctx := context.Background()

	var imp progressLog
	sum, err := ImportPath(ctx, ws, filepath.Join("..", "testdata", "import", "harbor"), ImportOptions{Progress: imp.f})
	if err != nil {
		t.Fatal(err)
	}
	if r, w := imp.last["read"], imp.last["write"]; r.Done != 7 || r.Total != 7 || w.Done != len(sum.Imported) || w.Total != len(sum.Imported) {
		t.Errorf("import progress read %+v write %+v, %d imported", r, w, len(sum.Imported))
	}

	py, err := fixtures.PythonRepo(filepath.Join(t.TempDir(), "calc"))
	if err != nil {
		t.Fatal(err)
	}
	var mine progressLog
	res, err := MineGit(ctx, ws, gitmine.Options{Path: py.Path}, MineOptions{Progress: mine.f})
	if err != nil {
		t.Fatal(err)
	}
	if l := mine.last["log"]; l.Done != len(res.Tasks) || l.Done == 0 || !strings.HasPrefix(l.Item, "acme/calc#") {
		t.Errorf("mine progress %+v, %d tasks", l, len(res.Tasks))
	}

	var build progressLog
	ids := []string{res.Tasks[0].ID, res.Tasks[1].ID}
	results, err := Build(ctx, ws, BuildOptions{IDs: ids, Progress: build.f})
	if err != nil {
		t.Fatal(err)
	}
	if b := build.last["build"]; build.n != 2 || b.Done != 2 || b.Total != 2 || b.Item != results[1].ID {
		t.Errorf("build progress %+v (%d calls)", b, build.n)
	}
}
