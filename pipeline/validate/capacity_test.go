package validate

import "testing"

func TestAutoCapacity(t *testing.T) {
	for _, c := range []struct {
		cpus         int
		memMB, perMB int64
		want         int
	}{
		{2, 24 << 10, 4096, 2},    // this machine kind: CPUs decide
		{16, 16 << 10, 4096, 4},   // memory decides
		{64, 512 << 10, 4096, 16}, // the ceiling
		{0, 0, 4096, 1},           // not probed
		{8, 0, 4096, 8},           // memory unknown: CPUs
		{4, 2048, 4096, 1},        // less than one run's memory: still one
	} {
		if got := autoCapacity(c.cpus, c.memMB, c.perMB); got != c.want {
			t.Errorf("autoCapacity(%d, %d, %d) = %d, want %d", c.cpus, c.memMB, c.perMB, got, c.want)
		}
	}
	d := &DockerRunner{engineCPUs: 16, engineMemMB: 64 << 10}
	if got := workersFor(d, 0); got != 16 {
		t.Errorf("unset concurrency on a 16-CPU 64 GB engine: %d workers, want 16", got)
	}
	d.limits = Limits{MemoryMB: 8192}
	if got := workersFor(d, 0); got != 8 {
		t.Errorf("8 GB runs on a 64 GB engine: %d workers, want 8", got)
	}
	if got := workersFor(d, 3); got != 3 {
		t.Errorf("concurrency 3: %d workers", got)
	}
	if got := workersFor(noEngine{}, 0); got != 1 {
		t.Errorf("a runner that does not know its size: %d workers, want 1", got)
	}
}
