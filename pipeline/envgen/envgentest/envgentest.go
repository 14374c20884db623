// Package envgentest holds the helpers envgen's tests and its language
// packages' tests share: the ccb filter, mining a real repository, reading
// a built task's files.
package envgentest

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/pelletier/go-toml/v2"

	"curate/pipeline"
	"curate/pipeline/envgen"
	"curate/pipeline/filter"
	"curate/pipeline/source/gitmine"
)

// TestFilter is the ccb profile's filter (pipeline/profiles/ccb).
func TestFilter(t testing.TB) *filter.Config {
	t.Helper()
	_, self, _, _ := runtime.Caller(0)
	var doc struct {
		Filter filter.Config `toml:"filter"`
	}
	data, err := os.ReadFile(filepath.Join(filepath.Dir(self), "..", "..", "profiles", "filter.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := toml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	return &doc.Filter
}

// MinedTasks mines repo and returns its candidates by PR number.
func MinedTasks(t *testing.T, repo string, fc *filter.Config) map[int]*pipeline.Task {
	t.Helper()
	prs, err := gitmine.Mine(context.Background(), gitmine.Options{Path: repo})
	if err != nil {
		t.Fatal(err)
	}
	out := map[int]*pipeline.Task{}
	for _, pr := range prs {
		reasons, err := fc.Evaluate(pr, filter.Options{Preset: "taskgen"})
		if err != nil {
			t.Fatal(err)
		}
		out[pr.Number] = pr.Task("git", repo, reasons)
	}
	return out
}

// Read is a file of a built task dir.
func Read(t *testing.T, dir, rel string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// HasEnv reports whether the plan sets the ENV line kv.
func HasEnv(p *envgen.Plan, kv string) bool { return slices.Contains(p.Env, kv) }
