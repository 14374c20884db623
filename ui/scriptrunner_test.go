package ui

import (
	"context"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"curate/app"
	"curate/pipeline"
	"curate/pipeline/validate"
	"curate/workspace"
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

// scriptServices validates on ws through app.Validate, the function the
// binary wires in, with r as the only engine.
func scriptServices(r validate.Runner, ws *workspace.Workspace) *Services {
	return &Services{
		Validate: func(ctx context.Context, jobs []validate.Job, o app.ValidateOptions) ([]*pipeline.Run, error) {
			o.Engines = []validate.Runner{r}
			return app.Validate(ctx, ws, jobs, o)
		},
		Cancel:      func(id string) error { return app.RequestCancel(ws, id) },
		Concurrency: 1,
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
