package validate_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"curate/internal/testenv"
	"curate/pipeline"
	. "curate/pipeline/validate"
	"curate/pipeline/validate/logstream"
)

// fixtureTask copies testdata/tasks/name into a temp dir, pointing its
// Dockerfile's FROM at the given image.
func fixtureTask(t testing.TB, name, from string) string {
	t.Helper()
	src := filepath.Join("testdata", "tasks", name)
	dst := filepath.Join(t.TempDir(), name)
	err := filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		out := filepath.Join(dst, rel)
		if fi.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if filepath.Base(p) == "Dockerfile" {
			data = []byte(strings.NewReplacer("FROM BUSYBOX", "FROM "+from, "FROM BASE", "FROM "+from).Replace(string(data)))
		}
		return os.WriteFile(out, data, fi.Mode())
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

var idSeq atomic.Int64

// testValidator returns a validator on the local engine whose objects are
// labelled with a workspace name unique to the test.
func testValidator(t testing.TB) (*Validator, *DockerRunner) {
	t.Helper()
	testenv.RequireDocker(t)
	ws := fmt.Sprintf("test-%s-%d", t.Name(), os.Getpid())
	r, err := NewDockerRunner("", ws)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		r.Prune(context.Background(), false)
		r.Close()
	})
	v := &Validator{
		Runners: []Runner{r}, Concurrency: 2, Runs: 1, LogDir: t.TempDir(),
		NewID: func() string { return fmt.Sprintf("t%d-%d", os.Getpid(), idSeq.Add(1)) },
	}
	return v, r
}

// validateOne runs one job and returns its run.
func validateOne(t testing.TB, v *Validator, dir, mode string) *pipeline.Run {
	t.Helper()
	runs := v.Validate(context.Background(), []Job{{TaskID: filepath.Base(dir), TaskDir: dir, Mode: mode}})
	return runs[0]
}

// logOf reads a run's log file.
func logOf(t testing.TB, r *pipeline.Run) string {
	t.Helper()
	data, err := os.ReadFile(r.LogPath)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// collect subscribes to every run's log and keeps the lines.
type collector struct {
	mu    sync.Mutex
	lines map[string][]string
	wg    sync.WaitGroup
}

func (c *collector) onStart(r *pipeline.Run, b *logstream.Broadcaster) {
	s := b.Subscribe(0)
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		for {
			lines, _, ok := s.Next()
			if !ok {
				return
			}
			c.mu.Lock()
			if c.lines == nil {
				c.lines = map[string][]string{}
			}
			c.lines[r.ID] = append(c.lines[r.ID], lines...)
			c.mu.Unlock()
		}
	}()
}
