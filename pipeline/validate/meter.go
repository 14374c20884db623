package validate

import (
	"context"
	"sync"
	"time"

	"curate/pipeline"
)

// Meter collects the machine time of the work done under a context
// (WithMeter): the image builds the engine's runner makes there, and the
// executions a validation run adds. One run or one environment check
// has one meter; its times are stored with the run (Validator.Measured).
type Meter struct {
	mu    sync.Mutex
	times []pipeline.PhaseTime
}

type meterKey struct{}

// WithMeter returns ctx carrying m.
func WithMeter(ctx context.Context, m *Meter) context.Context {
	return context.WithValue(ctx, meterKey{}, m)
}

// RecordTime records one piece of work in ctx's meter, when it has one.
func RecordTime(ctx context.Context, phase string, wall, cpu time.Duration, cpuMeasured bool) {
	m, _ := ctx.Value(meterKey{}).(*Meter)
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := range m.times {
		if t := &m.times[i]; t.Phase == phase {
			t.Wall += wall
			t.CPU += cpu
			t.CPUMeasured = t.CPUMeasured && cpuMeasured
			return
		}
	}
	m.times = append(m.times, pipeline.PhaseTime{Phase: phase, Wall: wall, CPU: cpu, CPUMeasured: cpuMeasured})
}

// Times are the recorded times, one per phase, in the order first seen.
func (m *Meter) Times() []pipeline.PhaseTime {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]pipeline.PhaseTime(nil), m.times...)
}
