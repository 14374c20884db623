package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"curate/app"
	"curate/pipeline/validate"
)

// limitRecorder is an engine that runs nothing: it records the time limit
// each verification was given (its context's deadline) by task folder.
type limitRecorder struct {
	mu     sync.Mutex
	limits map[string]time.Duration
}

func (r *limitRecorder) Host() string { return "recorder" }

func (r *limitRecorder) Image(ctx context.Context, dir string, out io.Writer) (string, bool, error) {
	return "recorder:image", false, nil
}

func (r *limitRecorder) Exec(ctx context.Context, spec validate.ExecSpec, out validate.Output) (*validate.ExecResult, error) {
	dl, ok := ctx.Deadline()
	if !ok {
		return nil, fmt.Errorf("no time limit")
	}
	r.mu.Lock()
	r.limits[filepath.Base(spec.TaskDir)] = time.Until(dl).Round(time.Minute)
	r.mu.Unlock()
	return &validate.ExecResult{RewardText: []byte("0"), HasText: true, TestExit: 1}, nil
}

// taskWithLimit writes a minimal Harbor task dir; verifierSec 0 leaves the
// limit out of task.toml.
func taskWithLimit(t *testing.T, root, name string, verifierSec int) string {
	t.Helper()
	dir := filepath.Join(root, "tasks", name)
	toml := fmt.Sprintf("schema_version = \"1.0\"\n[task]\nname = %q\n", "limits/"+name)
	if verifierSec > 0 {
		toml += fmt.Sprintf("[verifier]\ntimeout_sec = %d\n", verifierSec)
	}
	files := map[string]string{
		"task.toml":              toml,
		"instruction.md":         "Fix it.\n",
		"environment/Dockerfile": "FROM busybox\n",
		"tests/test.sh":          "#!/bin/sh\necho 0 > /logs/verifier/reward.txt\n",
		"solution/solve.sh":      "#!/bin/sh\ntrue\n",
	}
	for rel, body := range files {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// The CLI and the workbench give a verification the same time limit:
// task.toml's wins, [docker] timeout applies only when task.toml has none,
// and --timeout (CLI only) wins over both.
func TestTimeoutPrecedenceSameFromBothFaces(t *testing.T) {
	root := newWorkspace(t)
	cfgPath := filepath.Join(root, "curate.toml")
	data, err := os.ReadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(`timeout = "10m"`)) {
		t.Fatal("curate init no longer writes [docker] timeout = \"10m\"")
	}
	if err := os.WriteFile(cfgPath, bytes.Replace(data, []byte(`timeout = "10m"`), []byte(`timeout = "7m"`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	hour := taskWithLimit(t, root, "hour", 3600)
	none := taskWithLimit(t, root, "none", 0)
	want := map[string]time.Duration{"hour": time.Hour, "none": 7 * time.Minute}

	viaCLI := func(extra ...string) map[string]time.Duration {
		rec := &limitRecorder{limits: map[string]time.Duration{}}
		var out, errb bytes.Buffer
		env := &Env{Out: &out, Err: &errb, In: strings.NewReader(""), engines: []validate.Runner{rec}}
		args := append([]string{"-w", root, "validate", hour, none, "--mode", "nop"}, extra...)
		if code := execute(context.Background(), env, args); code != 0 {
			t.Fatalf("validate %v: exit %d\n%s%s", extra, code, out.String(), errb.String())
		}
		return rec.limits
	}
	viaWorkbench := func() map[string]time.Duration {
		rec := &limitRecorder{limits: map[string]time.Duration{}}
		env := &Env{Out: io.Discard, Err: io.Discard, WorkspaceFlag: root, engines: []validate.Runner{rec}}
		defer env.Close()
		ctx := context.Background()
		ws, err := env.Workspace(ctx)
		if err != nil {
			t.Fatal(err)
		}
		tasks, err := ws.Store.Tasks(ctx)
		if err != nil {
			t.Fatal(err)
		}
		jobs, skips := validate.Jobs(ws.Root, tasks, []string{validate.ModeNop})
		if len(jobs) != 2 {
			t.Fatalf("jobs %v, skips %v", jobs, skips)
		}
		// What the Runs screen passes: its form's concurrency and runs, no
		// time limit of its own.
		if _, err := workbenchServices(env, ws, log.New(io.Discard, "", 0), "").Validate(ctx, jobs, app.ValidateOptions{Concurrency: 1, Runs: 1}); err != nil {
			t.Fatal(err)
		}
		return rec.limits
	}

	cli := viaCLI() // also adds both task dirs to the workspace
	wb := viaWorkbench()
	for name, d := range want {
		if cli[name] != d || wb[name] != d {
			t.Errorf("%s: CLI gave %v, workbench %v, want %v", name, cli[name], wb[name], d)
		}
	}
	for name, d := range viaCLI("--timeout", "2m") {
		if d != 2*time.Minute {
			t.Errorf("--timeout 2m: %s got %v", name, d)
		}
	}
}
