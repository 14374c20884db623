package app

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/docker/docker/client"

	"curate/pipeline/validate"
	"curate/workspace"
)

// EngineStatus is one engine and whether it answered.
type EngineStatus struct {
	Host string // as configured, "" for the environment's engine
	Name string // what to call it: the host, or the socket it means
	Err  error  // nil when it answered
}

// EngineReport is the answer of CheckEngines: every engine validation would
// use, in order.
type EngineReport []EngineStatus

// Down is the engines that did not answer.
func (r EngineReport) Down() []EngineStatus {
	var out []EngineStatus
	for _, e := range r {
		if e.Err != nil {
			out = append(out, e)
		}
	}
	return out
}

// AllDown reports that no engine answered (validation cannot start).
func (r EngineReport) AllDown() bool { return len(r) > 0 && len(r.Down()) == len(r) }

// Problem is one line saying which engines do not answer and what to do,
// "" when all answer.
func (r EngineReport) Problem() string {
	down := r.Down()
	if len(down) == 0 {
		return ""
	}
	names := make([]string, len(down))
	for i, e := range down {
		names[i] = e.Name
	}
	switch {
	case len(r) == 1:
		return fmt.Sprintf("Docker engine at %s does not answer: start it, or set [docker] hosts", names[0])
	case len(down) == len(r):
		return fmt.Sprintf("no Docker engine answers (%s): start one, or fix [docker] hosts", strings.Join(names, ", "))
	case len(down) == 1:
		return fmt.Sprintf("Docker engine at %s does not answer (1 of %d engines): validation runs on the others; start it, or remove it from [docker] hosts", names[0], len(r))
	}
	return fmt.Sprintf("Docker engines at %s do not answer (%d of %d engines): validation runs on the others; start them, or remove them from [docker] hosts",
		strings.Join(names, ", "), len(down), len(r))
}

// engineCheckTimeout bounds one engine's answer.
const engineCheckTimeout = 2 * time.Second

// CheckEngines asks every engine validation would use (flags, else
// curate.toml [docker] hosts, else the environment's) whether it answers,
// all at once, each within a couple of seconds.
func CheckEngines(ctx context.Context, ws *workspace.Workspace, flags []string) EngineReport {
	hosts := DockerHosts(ws, flags)
	out := make(EngineReport, len(hosts))
	var wg sync.WaitGroup
	for i, h := range hosts {
		out[i] = EngineStatus{Host: h, Name: engineName(h)}
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i].Err = pingHost(ctx, h)
		}()
	}
	wg.Wait()
	return out
}

// CheckRunners asks engines already open (tests, or a caller's own) whether
// they answer; one that cannot be asked counts as answering.
func CheckRunners(ctx context.Context, runners []validate.Runner) EngineReport {
	out := make(EngineReport, len(runners))
	for i, r := range runners {
		out[i] = EngineStatus{Host: r.Host(), Name: r.Host()}
		if c, ok := r.(validate.Checker); ok {
			cctx, cancel := context.WithTimeout(ctx, engineCheckTimeout)
			out[i].Err = c.Answers(cctx)
			cancel()
		}
	}
	return out
}

func pingHost(ctx context.Context, host string) error {
	cli, err := validate.NewClient(host)
	if err != nil {
		return err
	}
	defer cli.Close()
	ctx, cancel := context.WithTimeout(ctx, engineCheckTimeout)
	defer cancel()
	if _, err := cli.Ping(ctx); err != nil {
		return fmt.Errorf("docker engine %s: %w", engineName(host), err)
	}
	return nil
}

// engineName is what a host is called in messages: the host, else
// DOCKER_HOST, else the default socket.
func engineName(host string) string {
	switch {
	case host != "":
		return host
	case os.Getenv("DOCKER_HOST") != "":
		return os.Getenv("DOCKER_HOST")
	}
	return client.DefaultDockerHost
}
