package validate

// Sized is a runner that knows how many runs its engine holds at once;
// the Validator gives it that many workers when no concurrency is set.
type Sized interface {
	Capacity() int
}

// maxAutoConcurrency bounds what an engine's size alone asks for: past
// it, disk and the engine's own daemon are the limit, not CPUs.
const maxAutoConcurrency = 16

// Capacity is the runs this engine holds at once: one per CPU, as many
// as its memory holds at the per-run memory limit ([docker] memory, else
// DefaultLimits), at least 1 and at most maxAutoConcurrency. Probe reads
// the engine's size; before it, 1.
func (d *DockerRunner) Capacity() int {
	per := d.limits.MemoryMB
	if per <= 0 {
		per = DefaultLimits.MemoryMB
	}
	return autoCapacity(d.engineCPUs, d.engineMemMB, per)
}

func autoCapacity(cpus int, memMB, perRunMB int64) int {
	n := cpus
	if perRunMB > 0 && memMB > 0 {
		n = min(n, int(memMB/perRunMB))
	}
	return min(max(n, 1), maxAutoConcurrency)
}

// workersFor is how many runs r takes at once: concurrency when set,
// else r's own capacity, else 1.
func workersFor(r Runner, concurrency int) int {
	if concurrency > 0 {
		return concurrency
	}
	if s, ok := r.(Sized); ok {
		return s.Capacity()
	}
	return 1
}
