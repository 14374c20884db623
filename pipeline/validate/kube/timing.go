package kube

import (
	"context"
	"fmt"
	"regexp"
	"time"
)

// timing is where one execution's time went, seen from curate: the API
// objects made, the pod bound to a node, its container started (the image
// pulled, when it was not on the node), the container ended, its log
// drained, and everything deleted. Polling sees the steps within
// pollEvery; the pull is the kubelet's own measure.
type timing struct {
	start, created, scheduled, running, ended, drained, deleted time.Time
	pull                                                        time.Duration
}

// TimingPrefix starts the line each run's log ends with on this engine
// (the benchmark in docs/dev/performance.md reads it back).
const TimingPrefix = "curate: kubernetes timing:"

// line is the timing in seconds per step; "" when the run did not get
// as far as its container ending.
func (t *timing) line() string {
	if t.ended.IsZero() || t.drained.IsZero() || t.scheduled.IsZero() || t.running.IsZero() {
		return ""
	}
	s := func(a, b time.Time) float64 { return b.Sub(a).Seconds() }
	return fmt.Sprintf("%s create=%.3f schedule=%.3f start=%.3f pull=%.3f run=%.3f log=%.3f delete=%.3f",
		TimingPrefix, s(t.start, t.created), s(t.created, t.scheduled), s(t.scheduled, t.running), t.pull.Seconds(),
		s(t.running, t.ended), s(t.ended, t.drained), s(t.drained, t.deleted))
}

// pulledIn is the kubelet's "Successfully pulled image ... in 1.2s".
var pulledIn = regexp.MustCompile(`^Successfully pulled image .* in ([0-9.]+(?:ms|s|m))`)

// pullTime reads how long the node took to pull the pod's image from the
// pod's events (0: the image was on the node already).
func (j *jobRun) pullTime(ctx context.Context, pod string) time.Duration {
	ev, err := j.r.cs.CoreV1().Events(j.r.cfg.Namespace).List(ctx, fieldSel("involvedObject.name="+pod))
	if err != nil {
		return 0
	}
	for _, e := range ev.Items {
		if e.Reason != "Pulled" {
			continue
		}
		if m := pulledIn.FindStringSubmatch(e.Message); m != nil {
			if d, err := time.ParseDuration(m[1]); err == nil {
				return d
			}
		}
	}
	return 0
}
