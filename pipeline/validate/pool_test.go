package validate

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"curate/pipeline"
)

// countingRunner is a Runner that answers every verification with a
// reward, counting calls and the most containers in flight at once.
type countingRunner struct {
	name           string
	calls, running atomic.Int32
	peak           atomic.Int32
}

func (c *countingRunner) Host() string { return c.name }
func (c *countingRunner) Image(context.Context, string, io.Writer) (string, bool, error) {
	return "img", false, nil
}
func (c *countingRunner) Exec(ctx context.Context, spec ExecSpec, out Output) (*ExecResult, error) {
	c.calls.Add(1)
	n := c.running.Add(1)
	defer c.running.Add(-1)
	for {
		p := c.peak.Load()
		if n <= p || c.peak.CompareAndSwap(p, n) {
			break
		}
	}
	time.Sleep(20 * time.Millisecond)
	reward := "0"
	if spec.Oracle {
		reward = "1"
	}
	fmt.Fprintln(out.Stdout, "ran")
	return &ExecResult{HasText: true, RewardText: []byte(reward)}, nil
}

// The pool spreads runs over every engine and never exceeds --concurrency.
func TestPoolSpreadsOverEngines(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "task.toml"), []byte(""), 0o644)
	a, b := &countingRunner{name: "a"}, &countingRunner{name: "b"}
	var mu sync.Mutex
	hosts := map[string]int{}
	var seq atomic.Int32
	v := &Validator{Runners: []Runner{a, b}, Concurrency: 4, Runs: 1,
		NewID: func() string { return fmt.Sprint(seq.Add(1)) },
		Save: func(_ context.Context, r *pipeline.Run) error {
			if r.Outcome.Finished() {
				mu.Lock()
				hosts[r.DockerHost]++
				mu.Unlock()
			}
			return nil
		}}
	var jobs []Job
	for i := 0; i < 20; i++ {
		jobs = append(jobs, Job{TaskID: fmt.Sprint("t", i), TaskDir: dir, Mode: []string{ModeNop, ModeOracle}[i%2]})
	}
	for _, r := range v.Validate(context.Background(), jobs) {
		if r.Outcome != pipeline.OutcomeOK {
			t.Fatalf("%s %s: %s %s", r.TaskID, r.Mode, r.Outcome, r.Detail)
		}
	}
	if a.calls.Load() == 0 || b.calls.Load() == 0 || a.calls.Load()+b.calls.Load() != 20 {
		t.Fatalf("calls a=%d b=%d", a.calls.Load(), b.calls.Load())
	}
	if hosts["a"]+hosts["b"] != 20 {
		t.Fatalf("hosts %v", hosts)
	}
	if p := a.peak.Load() + b.peak.Load(); p > 4 {
		t.Fatalf("%d containers at once, want <= 4", p)
	}
}

func TestNoRunnerIsInfraError(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "task.toml"), nil, 0o644)
	v := &Validator{NewID: func() string { return "x" }}
	runs := v.Validate(context.Background(), []Job{{TaskID: "t", TaskDir: dir, Mode: ModeNop}})
	if runs[0].Outcome != pipeline.OutcomeInfraError {
		t.Fatalf("%s: %s", runs[0].Outcome, runs[0].Detail)
	}
}
