package validate

import (
	"fmt"
	"strconv"
	"strings"
)

// Caps are the workspace's ceilings over what any task asks of a
// container ([docker] max_memory, max_cpus, max_pids, max_disk, max_log;
// a Kubernetes runner reads the same from [kubernetes]). A task's values
// inside taskvalue's ranges are clamped to them, and the run's log says
// so; a task never lifts them. Zero fields take DefaultCaps.
type Caps struct {
	MemoryMB int64
	CPUs     float64
	Pids     int64
	DiskMB   int64 // the container's writable layer
	LogBytes int64 // a run's log file
}

// Defaults of the caps a workspace does not set.
const (
	defaultMaxMemoryMB = 8 << 10  // 8 GiB, or the engine's memory when less
	DefaultMaxPids     = 32768    // far above any suite's need, far below pid_max
	DefaultMaxDiskMB   = 10 << 10 // 10 GiB of writes per container
	DefaultMaxLog      = 64 << 20 // 64 MiB per run log
)

// DefaultCaps are the caps on an engine with memMB of memory and cpus
// processors (0 when unknown): memory min(8 GiB, the engine's), CPUs the
// engine's, DefaultMaxPids, DefaultMaxDiskMB, DefaultMaxLog.
func DefaultCaps(memMB int64, cpus int) Caps {
	c := Caps{MemoryMB: defaultMaxMemoryMB, CPUs: float64(cpus), Pids: DefaultMaxPids, DiskMB: DefaultMaxDiskMB, LogBytes: DefaultMaxLog}
	if memMB > 0 && memMB < c.MemoryMB {
		c.MemoryMB = memMB
	}
	if c.CPUs <= 0 {
		c.CPUs = 2
	}
	return c
}

// Or fills c's zero fields from d.
func (c Caps) Or(d Caps) Caps {
	if c.MemoryMB <= 0 {
		c.MemoryMB = d.MemoryMB
	}
	if c.CPUs <= 0 {
		c.CPUs = d.CPUs
	}
	if c.Pids <= 0 {
		c.Pids = d.Pids
	}
	if c.DiskMB <= 0 {
		c.DiskMB = d.DiskMB
	}
	if c.LogBytes <= 0 {
		c.LogBytes = d.LogBytes
	}
	return c
}

// RunLimits are what one container gets.
type RunLimits struct {
	MemoryMB int64
	CPUs     float64
	Pids     int64
	DiskMB   int64
}

// Limits resolves a run's limits: the task's own values (task.toml), else
// the workspace's (def: [docker] memory, cpus), else DefaultLimits, each
// clamped to the caps. notes say, one line each, what a cap lowered.
func (c Caps) Limits(cfg *TaskConfig, def Limits) (RunLimits, []string) {
	c = c.Or(DefaultCaps(0, 0))
	l := RunLimits{MemoryMB: DefaultLimits.MemoryMB, CPUs: DefaultLimits.CPUs, Pids: DefaultPidsLimit, DiskMB: c.DiskMB}
	memFrom, cpuFrom, pidFrom := "the default memory", "the default cpus", "the default pids_limit"
	if def.MemoryMB > 0 {
		l.MemoryMB, memFrom = def.MemoryMB, "[docker] memory"
	}
	if def.CPUs > 0 {
		l.CPUs, cpuFrom = def.CPUs, "[docker] cpus"
	}
	if cfg != nil {
		if cfg.MemoryMB > 0 {
			l.MemoryMB, memFrom = cfg.MemoryMB, "task.toml memory_mb"
		}
		if cfg.CPUs > 0 {
			l.CPUs, cpuFrom = cfg.CPUs, "task.toml cpus"
		}
		// A task config without pids_limit carries curate's default
		// (ReadTaskConfig, a task without task.toml): asking for exactly
		// the default is the same as not asking.
		if cfg.PidsLimit > 0 && cfg.PidsLimit != DefaultPidsLimit {
			l.Pids, pidFrom = cfg.PidsLimit, "task.toml pids_limit"
		}
	}
	var notes []string
	// A cap lowering curate's own default is the workspace's choice, not
	// news about the task: only values someone set are reported.
	note := func(from, asked, capName, got string) {
		if !strings.HasPrefix(from, "the default ") {
			notes = append(notes, fmt.Sprintf("curate: cap: %s = %s is over max_%s; the container gets %s", from, asked, capName, got))
		}
	}
	if l.MemoryMB > c.MemoryMB {
		note(memFrom, mb(l.MemoryMB), "memory", mb(c.MemoryMB))
		l.MemoryMB = c.MemoryMB
	}
	if l.CPUs > c.CPUs {
		note(cpuFrom, num(l.CPUs), "cpus", num(c.CPUs))
		l.CPUs = c.CPUs
	}
	if l.Pids > c.Pids {
		note(pidFrom, strconv.FormatInt(l.Pids, 10), "pids", strconv.FormatInt(c.Pids, 10))
		l.Pids = c.Pids
	}
	return l, notes
}

func mb(n int64) string    { return strconv.FormatInt(n, 10) + " MB" }
func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
