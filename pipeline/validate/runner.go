package validate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"
)

// Runner runs verifications in containers on one engine.
type Runner interface {
	// Host names the engine, for run records and messages.
	Host() string
	// Image returns the environment image of a task dir, building it when
	// no image carries the tag of its environment digest. built says
	// whether a build happened; build output goes to out.
	Image(ctx context.Context, taskDir string, out io.Writer) (image string, built bool, err error)
	// Exec runs one verification in a fresh container and removes it.
	Exec(ctx context.Context, spec ExecSpec, out Output) (*ExecResult, error)
}

// Output receives a container's demultiplexed output.
type Output struct {
	Stdout, Stderr io.Writer
	// Waiting, when set, hears that the run waits for the engine's
	// capacity (a cluster's quota or full nodes: why), and "" once it
	// no longer waits. Engines that queue nothing never call it.
	Waiting func(why string)
}

// ExecSpec is one verification: tests only (NOP, the buggy state) or the
// oracle's solve.sh first (the fixed state).
type ExecSpec struct {
	TaskDir string
	Image   string
	Oracle  bool
	Config  *TaskConfig
	Labels  map[string]string
	// KeepTestLog returns test.sh's output (up to MaxTestLog bytes) for
	// gold grading.
	KeepTestLog bool
	// phase runs one phase of a separate verifier environment (separate.go).
	phase *phaseSpec
}

// MaxTestLog caps how much of test.sh's output gold grading reads.
const MaxTestLog = 64 << 20

// ExecResult is what the verification left in /logs.
type ExecResult struct {
	RewardJSON, RewardText []byte
	HasJSON, HasText       bool
	TestLog                []byte
	TestLogTruncated       bool
	HasTestLog             bool   // TestLog was read (KeepTestLog), even if empty
	CTRF                   []byte // /logs/verifier/ctrf.json (gold), when test.sh wrote one
	TestExit               int    // exit code of test.sh; -1 when unknown
	ExitCode               int    // exit code of the container's script
	Container              string
	OOMKilledMB            int64  // > 0: the OOM killer stopped a process at this memory limit
	DiskLimitMB            int64  // > 0: the disk watchdog stopped the container at this cap
	DiskUsedMB             int64  // what its writable layer held then
	Artifacts              []byte // separate verifier: what the agent phase carries over (a tar)
	// CPU is the CPU time the kernel charged to the run's containers
	// (cgroupcpu.go); CPUMeasured is false where the engine's cgroups are
	// not curate's to read (another machine, the systemd driver, a cluster).
	CPU         time.Duration
	CPUMeasured bool
}

// BuildError is a task that cannot be set up: a failed image build (Step
// names the Dockerfile step) or task files that cannot be sent (Phase).
type BuildError struct {
	Phase string // default "build environment image"
	Step  string
	Msg   string
}

func (e *BuildError) Error() string {
	phase := e.Phase
	if phase == "" {
		phase = "build environment image"
	}
	if e.Step == "" {
		return phase + ": " + e.Msg
	}
	return fmt.Sprintf("%s: %s: %s", phase, e.Step, e.Msg)
}

// InfraError is a failure of the engine or the machine, not of the task.
type InfraError struct{ Err error }

func (e *InfraError) Error() string { return "infrastructure: " + e.Err.Error() }
func (e *InfraError) Unwrap() error { return e.Err }

func infra(format string, args ...any) error {
	return &InfraError{Err: fmt.Errorf(format, args...)}
}

// IsInfra reports whether err is an infrastructure failure.
func IsInfra(err error) bool {
	var ie *InfraError
	return errors.As(err, &ie)
}
