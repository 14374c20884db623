package uitest

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"curate/app"
	"curate/pipeline"
	"curate/pipeline/validate"
	"curate/ui/shared"
	"curate/workspace"
)

// ScriptRunner is a validate.Runner that prints a scripted log instead of
// running containers (the Docker engine has its own tests). NOP scores 0
// and the oracle 1, unless nopReward says otherwise. When gate is set, it
// prints lines[:pauseAt], then waits for gate (or cancellation) before the
// rest.
type ScriptRunner struct {
	Lines     []string
	Every     time.Duration
	NopReward string
	PauseAt   int
	Gate      chan struct{}
	Execs     atomic.Int32
}

func (r *ScriptRunner) Host() string { return "script" }

func (r *ScriptRunner) Image(ctx context.Context, dir string, out io.Writer) (string, bool, error) {
	fmt.Fprintln(out, "Step 1/1 : FROM curate/base:bookworm")
	return "script:image", false, nil
}

func (r *ScriptRunner) Exec(ctx context.Context, spec validate.ExecSpec, out validate.Output) (*validate.ExecResult, error) {
	r.Execs.Add(1)
	for i, l := range r.Lines {
		if r.Gate != nil && i == r.PauseAt {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-r.Gate:
			}
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		fmt.Fprintln(out.Stdout, l)
		if r.Every > 0 {
			time.Sleep(r.Every)
		}
	}
	reward := "1"
	if !spec.Oracle {
		reward = "0"
		if r.NopReward != "" {
			reward = r.NopReward
		}
	}
	return &validate.ExecResult{RewardText: []byte(reward), HasText: true, TestExit: 1, ExitCode: 0, Container: "script"}, nil
}

// ScriptServices validates on ws through app.Validate, the function the
// binary wires in, with r as the only engine.
func ScriptServices(r validate.Runner, ws *workspace.Workspace) *shared.Services {
	return &shared.Services{
		Validate: func(ctx context.Context, jobs []validate.Job, o app.ValidateOptions) ([]*pipeline.Run, error) {
			o.Engines = []validate.Runner{r}
			return app.Validate(ctx, ws, jobs, o)
		},
		Cancel:      func(id string) error { return app.RequestCancel(ws, id) },
		Concurrency: 1,
	}
}

// Numbered makes n log lines; line 40 (1-based) is an error.
func Numbered(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("test line %04d", i+1)
		if i == 39 {
			out[i] = "E   AssertionError: assert 0 == 0.5"
		}
	}
	return out
}

// CompleteTaskDir adds what the fixture lacks to be a Harbor task dir.
func CompleteTaskDir(t *testing.T, dir string) {
	t.Helper()
	for name, text := range map[string]string{
		"task.toml":              "schema_version = \"1.0\"\n[task]\nname = \"acme/fixture-calc\"\n[verifier]\ntimeout_sec = 60\n",
		"environment/Dockerfile": "FROM curate/base:bookworm\n",
		"solution/solve.sh":      "#!/bin/bash\ncd /app && patch -p1 < /solution/fix.patch\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
