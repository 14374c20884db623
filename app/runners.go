package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"curate/pipeline"
	"curate/pipeline/taskvalue"
	"curate/pipeline/validate"
	"curate/pipeline/validate/egress"
	"curate/workspace"
)

// ProcessAlive reports whether pid is a live process (signal 0 probes it).
func ProcessAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	if err := syscall.Kill(pid, 0); err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	// A live pid may have been reused by another program since: it counts
	// when it runs this executable or one named curate.
	// The exe link first: a process that has just exec'd can show an
	// empty cmdline for a moment (the kernel wakes the parent of a vfork
	// before it writes the new arguments), and was judged dead.
	if exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid)); err == nil {
		if self, err := os.Executable(); err == nil && self == exe {
			return true
		}
		if strings.Contains(filepath.Base(exe), "curate") {
			return true
		}
	}
	if cmd, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid)); err == nil {
		return strings.Contains(string(cmd), "curate")
	}
	return true
}

// DockerHosts picks the engines: flags, else curate.toml [docker] hosts,
// else the environment (DOCKER_HOST or the default socket).
func DockerHosts(ws *workspace.Workspace, flags []string) []string {
	switch {
	case len(flags) > 0:
		return flags
	case len(ws.Config.Docker.Hosts) > 0:
		return ws.Config.Docker.Hosts
	}
	return []string{""}
}

// OpenRunners connects to every host that answers; hosts that do not are
// reported on warn and left out. It fails when none answers.
func OpenRunners(ctx context.Context, ws *workspace.Workspace, hosts []string, warn io.Writer) ([]*validate.DockerRunner, error) {
	var out []*validate.DockerRunner
	var errs []error
	allow := sync.OnceValues(func() (*egress.Allowlist, error) { return EgressAllowlist(context.WithoutCancel(ctx), ws) })
	cache := sync.OnceValues(func() (*egress.Cache, error) { return PackageCache(context.WithoutCancel(ctx), ws) })
	for _, h := range hosts {
		r, err := validate.NewDockerRunner(h, ws.Root)
		if err == nil {
			r.SetEgress(allow)
			r.SetPackageCache(cache)
			r.SetTaskNetwork(ws.Config.Docker.TaskNetwork)
			r.SetLimits(ContainerLimits(ws))
			r.SetCaps(WorkspaceCaps(ws.Config.Docker.CapsConfig))
			r.SetUser(ws.Config.Docker.User)
			pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			err = r.Ping(pctx)
			if err == nil {
				err = r.Probe(pctx) // the engine's memory, CPUs and storage driver: default caps
			}
			cancel()
			if err != nil {
				r.Close()
			}
		}
		if err != nil {
			errs = append(errs, err)
			if warn != nil && len(hosts) > 1 {
				fmt.Fprintf(warn, "warning: leaving out %s: %v\n", hostName(h), err)
			}
			continue
		}
		r.Progress = warn
		out = append(out, r)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no Docker engine answers (%w); start one or pass --docker-host", errors.Join(errs...))
	}
	return out, nil
}

// ContainerLimits are curate.toml's [docker] memory and cpus (checked when
// the file was read); zero values leave validate.DefaultLimits.
func ContainerLimits(ws *workspace.Workspace) validate.Limits {
	l := validate.Limits{CPUs: ws.Config.Docker.CPUs}
	if m := ws.Config.Docker.Memory; m != "" {
		if mb, err := taskvalue.Check("docker.memory", taskvalue.Spec{Kind: taskvalue.Size}, m); err == nil {
			l.MemoryMB = int64(mb.(float64))
		}
	}
	return l
}

// WorkspaceCaps reads a caps table (checked when the file was read);
// zero fields take the engine's defaults (validate.DefaultCaps).
func WorkspaceCaps(c workspace.CapsConfig) validate.Caps {
	size := func(v string) int64 {
		if v == "" {
			return 0
		}
		mb, err := taskvalue.Check("size", taskvalue.Spec{Kind: taskvalue.Size}, v)
		if err != nil {
			return 0
		}
		return int64(mb.(float64))
	}
	caps := validate.Caps{MemoryMB: size(c.MaxMemory), CPUs: c.MaxCPUs, Pids: c.MaxPids, DiskMB: size(c.MaxDisk)}
	if c.MaxLog != "" {
		if mb, err := taskvalue.Check("size", taskvalue.Spec{Kind: taskvalue.Size}, c.MaxLog); err == nil {
			caps.LogBytes = int64(mb.(float64) * (1 << 20))
		}
	}
	return caps
}

func hostName(h string) string {
	if h == "" {
		if env := os.Getenv("DOCKER_HOST"); env != "" {
			return env
		}
		return "the default engine"
	}
	return h
}

// orphanRemover is the part of an engine recovery needs.
type orphanRemover interface {
	RemoveOrphanContainers(ctx context.Context, keep func(runID string) bool) (int, error)
}

// createSettle is how long recovery waits before a second sweep when a
// dead run had just started: the engine may still be creating a
// container its killed process asked for.
const createSettle = time.Second

// RecoverInterrupted marks runs whose process died as interrupted and, on
// every engine given, removes the run containers of this workspace that
// no live curate process owns.
func RecoverInterrupted(ctx context.Context, ws *workspace.Workspace, runners []validate.Runner, log io.Writer) error {
	dead, err := ws.Store.MarkInterrupted(ctx, ProcessAlive)
	if err != nil {
		return fmt.Errorf("mark interrupted runs: %w", err)
	}
	removed := sweepOrphans(ctx, ws, runners)
	justStarted := false
	for _, r := range dead {
		justStarted = justStarted || time.Since(r.StartedAt) < 30*time.Second
	}
	if justStarted {
		select {
		case <-time.After(createSettle):
			removed += sweepOrphans(ctx, ws, runners)
		case <-ctx.Done():
		}
	}
	switch {
	case log == nil:
	case len(dead) > 0:
		fmt.Fprintf(log, "note: %d run(s) of a stopped curate marked interrupted, %d container(s) removed\n", len(dead), removed)
	case removed > 0:
		fmt.Fprintf(log, "note: removed %d container(s) of runs no curate process owns\n", removed)
	}
	return nil
}

// sweepOrphans removes, on each engine, the run containers of runs that
// are not in flight in a live process, and those of environment checks
// whose process died.
func sweepOrphans(ctx context.Context, ws *workspace.Workspace, runners []validate.Runner) int {
	inFlight, err := ws.Store.RunsByOutcome(ctx, pipeline.OutcomePending, pipeline.OutcomeRunning)
	if err != nil {
		return 0
	}
	live := map[string]bool{}
	for _, r := range inFlight {
		if ProcessAlive(r.PID) {
			live[r.ID] = true
		}
	}
	n := 0
	for _, r := range runners {
		if rm, ok := r.(orphanRemover); ok {
			k, _ := rm.RemoveOrphanContainers(ctx, func(id string) bool { return live[id] || envCheckAlive(id) })
			n += k
		}
	}
	return n
}
