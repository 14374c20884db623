package kube

import (
	"context"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"curate/pipeline/validate"
)

// Caps are the ceilings over every task's values ([docker] max_*, the same
// table as Docker runs): the workspace's, else DefaultCaps of the largest
// node (a pod asking more than any node has would never be scheduled).
func (r *Runner) Caps() validate.Caps {
	r.capsOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		var memMB int64
		var cpus int
		// A user allowed only its namespace cannot list nodes: the
		// defaults of an unknown engine then apply.
		if nodes, err := r.cs.CoreV1().Nodes().List(ctx, metav1.ListOptions{}); err == nil {
			for _, n := range nodes.Items {
				if m := n.Status.Allocatable.Memory(); m != nil && m.Value()>>20 > memMB {
					memMB = m.Value() >> 20
				}
				if c := n.Status.Allocatable.Cpu(); c != nil && int(c.Value()) > cpus {
					cpus = int(c.Value())
				}
			}
		}
		r.nodeCaps = validate.DefaultCaps(memMB, cpus)
	})
	return r.cfg.Caps.Or(r.nodeCaps)
}

// CapNotes says, one log line each, which of a task's values a cap lowers
// (the validator writes them into the run's log).
func (r *Runner) CapNotes(cfg *validate.TaskConfig) []string {
	_, notes := r.Caps().Limits(cfg, r.cfg.Limits)
	return notes
}

// limits are a run's pod limits: the task's values, else the workspace's,
// each clamped to the caps; a task value never lifts a cap.
func (r *Runner) limits(cfg *validate.TaskConfig) validate.Limits {
	l, _ := r.Caps().Limits(cfg, r.cfg.Limits)
	return validate.Limits{MemoryMB: l.MemoryMB, CPUs: l.CPUs}
}
