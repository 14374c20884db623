package validate

import (
	"bytes"
	"io"
)

// What an engine other than Docker (pipeline/validate/kube) needs to run a
// verification the way DockerRunner does: the same task files, the same
// script and the same result trailer, so everything above the engine
// reads one kind of result.

// TaskFiles is the tar archive of a run's /tests, /solution (oracle) and
// /logs, as a Docker run receives it.
func TaskFiles(spec ExecSpec) ([]byte, error) {
	var buf bytes.Buffer
	if err := writeTaskArchive(&buf, spec); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// TaskScript is the shell script of a run that unpacks the task files
// from its stdin, runs the oracle (when asked) and the verifier, and ends
// with the result trailer (see trailer.go).
func TaskScript(spec ExecSpec) string {
	return script(spec.Oracle, true, spec.KeepTestLog, execConfig(spec))
}

// execConfig is a spec's task config, or the defaults of a task without
// task.toml.
func execConfig(spec ExecSpec) *TaskConfig {
	if spec.Config != nil {
		return spec.Config
	}
	return &TaskConfig{NetworkMode: "no-network", PidsLimit: DefaultPidsLimit}
}

// ResultTap passes a run's output on to next and keeps its result trailer
// aside (see trailer.go).
type ResultTap struct{ t *trailerTap }

// NewResultTap taps output for the trailer.
func NewResultTap(next io.Writer) *ResultTap {
	return &ResultTap{t: newTrailerTap(next, trailerLimit)}
}

func (r *ResultTap) Write(p []byte) (int, error) { return r.t.Write(p) }

// Flush ends the output: the trailer is kept, every other byte passed on.
func (r *ResultTap) Flush() { r.t.Flush() }

// Found says whether the trailer came (after Flush).
func (r *ResultTap) Found() bool { return r.t.found }

// Fill puts the trailer's files into res; an error means the trailer is
// missing or damaged.
func (r *ResultTap) Fill(res *ExecResult, keepTestLog bool) error {
	files, err := r.t.files()
	if err != nil {
		return err
	}
	res.fromFiles(files, keepTestLog)
	return nil
}

// Infra wraps an engine failure so validation records it as
// infra_error, not as the task's failure.
func Infra(err error) error { return &InfraError{Err: err} }
