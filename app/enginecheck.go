package app

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

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
// "" when all answer: the one wording both the CLI and the workbench show.
func (r EngineReport) Problem() string { return r.ProblemFit(0, nil) }

// ProblemFit is Problem in at most width cells (0: any), for a status
// line: the engine names are shortened by shorten (the workbench cuts
// them in the middle) so that what to do stays whole, and when even that
// leaves too little of them, the leading "Docker at" goes (the status
// bar already says docker ✗). A name is never cut below 16 cells; the
// line may then be longer than width.
func (r EngineReport) ProblemFit(width int, shorten func(s string, w int) string) string {
	lead, compact, names, rest := r.problemParts()
	line := lead + names + rest
	if line == "" || width <= 0 || shorten == nil || cells(line) <= width {
		return line
	}
	const minName = 16
	if room := width - cells(lead) - cells(rest); room >= minName {
		return lead + shorten(names, room) + rest
	}
	room := max(width-cells(compact)-cells(rest), minName)
	if cells(names) <= room {
		return compact + names + rest
	}
	return compact + shorten(names, room) + rest
}

// problemParts is Problem in pieces: the lead (and its shorter form), the
// engine names, and the rest, which says what to do.
func (r EngineReport) problemParts() (lead, compact, names, rest string) {
	down := r.Down()
	if len(down) == 0 {
		return "", "", "", ""
	}
	ns := make([]string, len(down))
	for i, e := range down {
		ns[i] = e.Name
	}
	names = strings.Join(ns, ", ")
	switch {
	case len(r) == 1:
		return "Docker at ", "", names, " does not answer: start it or set [docker] hosts"
	case len(down) == len(r):
		return "no Docker engine answers (", "none answers (", names, "): start one or fix [docker] hosts"
	case len(down) == 1:
		return "Docker at ", "", names, fmt.Sprintf(" does not answer (1 of %d engines): validation runs on the others; start it or remove it from [docker] hosts", len(r))
	}
	return "Docker engines at ", "", names, fmt.Sprintf(" do not answer (%d of %d engines): validation runs on the others; start them or remove them from [docker] hosts", len(down), len(r))
}

// cells is the width of a plain line (engine names are ASCII).
func cells(s string) int { return utf8.RuneCountInString(s) }

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
