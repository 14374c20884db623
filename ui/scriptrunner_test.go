package ui

import (
	"context"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"curate/pipeline/validate"
)

// scriptRunner is a validate.Runner that prints a scripted log instead of
// running containers (the Docker engine has its own tests). NOP scores 0
// and the oracle 1, unless nopReward says otherwise. When gate is set, it
// prints lines[:pauseAt], then waits for gate (or cancellation) before the
// rest.
type scriptRunner struct {
	lines     []string
	every     time.Duration
	nopReward string
	pauseAt   int
	gate      chan struct{}
	execs     atomic.Int32
}

func (r *scriptRunner) Host() string { return "script" }

func (r *scriptRunner) Image(ctx context.Context, dir string, out io.Writer) (string, bool, error) {
	fmt.Fprintln(out, "Step 1/1 : FROM curate/base:bookworm")
	return "script:image", false, nil
}

func (r *scriptRunner) Exec(ctx context.Context, spec validate.ExecSpec, out validate.Output) (*validate.ExecResult, error) {
	r.execs.Add(1)
	for i, l := range r.lines {
		if r.gate != nil && i == r.pauseAt {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-r.gate:
			}
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		fmt.Fprintln(out.Stdout, l)
		if r.every > 0 {
			time.Sleep(r.every)
		}
	}
	reward := "1"
	if !spec.Oracle {
		reward = "0"
		if r.nopReward != "" {
			reward = r.nopReward
		}
	}
	return &validate.ExecResult{RewardText: []byte(reward), HasText: true, TestExit: 1, ExitCode: 0, Container: "script"}, nil
}

func scriptServices(r validate.Runner, logDir string) *Services {
	return &Services{
		Runners: func(context.Context) ([]validate.Runner, func(), error) {
			return []validate.Runner{r}, func() {}, nil
		},
		Concurrency: 1,
		LogDir:      logDir,
	}
}

// numbered makes n log lines; line 40 (1-based) is an error.
func numbered(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("test line %04d", i+1)
		if i == 39 {
			out[i] = "E   AssertionError: assert 0 == 0.5"
		}
	}
	return out
}
