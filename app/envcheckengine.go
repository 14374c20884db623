package app

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"curate/pipeline/validate"
	"curate/workspace"
)

// envChecker is what an environment check needs of an engine: the
// repository environment image, and one execution of the suite in it.
// The Docker engine and the kubernetes engine (its Jobs, with their caps,
// waiting, cancel and cleanup) both are one.
type envChecker interface {
	RepoImage(ctx context.Context, envDir string, out io.Writer) (string, error)
	Exec(ctx context.Context, spec validate.ExecSpec, out validate.Output) (*validate.ExecResult, error)
}

// openEnvChecker opens the engine the checks run on: Docker (host, ""
// = the environment's) unless engine names a registered one. size is how
// many runs it takes at once, as validate resolves it.
func openEnvChecker(ctx context.Context, ws *workspace.Workspace, engine, host string, warn io.Writer) (envChecker, int, func(), error) {
	if engine == "" || engine == "docker" {
		runners, err := OpenRunners(ctx, ws, []string{host}, warn)
		if err != nil {
			return nil, 0, nil, err
		}
		size := ResolvedConcurrency([]validate.Runner{runners[0]}, ws.Config.Docker.Concurrency)
		return runners[0], size, func() { runners[0].Close() }, nil
	}
	opened, err := OpenEngine(ctx, ws, engine, warn)
	if err != nil {
		return nil, 0, nil, err
	}
	c, ok := opened.Runners[0].(envChecker)
	if !ok {
		opened.Close()
		return nil, 0, nil, fmt.Errorf("the %s engine cannot run environment checks", engine)
	}
	size := opened.Concurrency
	if size <= 0 {
		size = ws.Config.Docker.Concurrency
	}
	return c, ResolvedConcurrency(opened.Runners, size), opened.Close, nil
}

// envCheckRunPrefix starts the run id of a check's execution. A check has
// no row in the runs table, so the id carries its process: recovery
// removes the containers and Jobs of a check whose curate died, and never
// those of a check still running.
const envCheckRunPrefix = "envcheck-"

// envCheckRunID is a fresh run id for one check's execution.
func envCheckRunID() string {
	var b [4]byte
	rand.Read(b[:])
	return fmt.Sprintf("%s%d-%s", envCheckRunPrefix, os.Getpid(), hex.EncodeToString(b[:]))
}

// envCheckAlive says whether id is a check's execution whose curate runs.
func envCheckAlive(id string) bool {
	rest, ok := strings.CutPrefix(id, envCheckRunPrefix)
	if !ok {
		return false
	}
	pid, err := strconv.Atoi(strings.SplitN(rest, "-", 2)[0])
	return err == nil && ProcessAlive(pid)
}
