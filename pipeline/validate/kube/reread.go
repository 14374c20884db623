package kube

import (
	"context"
	"fmt"
	"io"

	"curate/pipeline/validate"

	corev1 "k8s.io/api/core/v1"
)

// rereadLog reads a finished pod's whole log again for the result
// trailer when the followed stream ended without it: the stream of a
// container that exited 0 was cut short in the middle of its trailer (a
// campaign on the CI cluster: a C++ task's NOP run `reward_missing`, its
// log ending inside ctrf.json). The log already shown is not
// shown again; one line in it says what happened.
func rereadLog(stdout io.Writer, open func() (io.ReadCloser, error)) *validate.ResultTap {
	tap := validate.NewResultTap(io.Discard)
	rc, err := open()
	if err == nil {
		_, err = io.Copy(tap, rc)
		rc.Close()
	}
	tap.Flush()
	switch {
	case err != nil:
		fmt.Fprintf(stdout, "curate: the followed log ended before the result trailer, and reading it again failed: %v\n", err)
	case tap.Found():
		fmt.Fprintln(stdout, "curate: the followed log ended before the result trailer; the result was read from the whole log, fetched again")
	}
	return tap
}

// fullLog is the run's pod log from its start, not followed.
func (j *jobRun) fullLog(ctx context.Context) (io.ReadCloser, error) {
	return j.r.cs.CoreV1().Pods(j.r.cfg.Namespace).GetLogs(j.podName, &corev1.PodLogOptions{Container: containerName}).Stream(ctx)
}
