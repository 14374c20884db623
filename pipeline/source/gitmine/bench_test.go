package gitmine

import (
	"context"
	"io"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"curate/internal/fixtures"
)

// BenchmarkMineVsGitLog mines a repository with 3000 PRs (2700 merges)
// and, in the same iteration, runs the baseline `git log --first-parent
// -m --numstat` over the same range. It reports both times and their
// ratio (target: at most 1.5).
func BenchmarkMineVsGitLog(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "big")
	if err := fixtures.BigHistory(dir, 3000); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	var mine, base time.Duration
	prs := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		cmd := exec.Command("git", "-C", dir, "log", "--first-parent", "-m", "--numstat", "main")
		cmd.Stdout = io.Discard
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		got, err := Mine(ctx, Options{Path: dir, Branch: "main"})
		if err != nil {
			b.Fatal(err)
		}
		t2 := time.Now()
		base += t1.Sub(t0)
		mine += t2.Sub(t1)
		prs = len(got)
	}
	if prs != 3000 {
		b.Fatalf("mined %d PRs, want 3000", prs)
	}
	b.ReportMetric(float64(mine.Milliseconds())/float64(b.N), "mine-ms/op")
	b.ReportMetric(float64(base.Milliseconds())/float64(b.N), "gitlog-ms/op")
	b.ReportMetric(float64(mine)/float64(base), "ratio")
}
