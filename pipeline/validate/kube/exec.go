package kube

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"curate/pipeline/validate"
)

// pollEvery is how often a run's pod is looked at while it waits or runs.
const pollEvery = 300 * time.Millisecond

// errPodLost is a pod that went away before its container ended: deleted,
// evicted, or lost with its node. The run is retried once.
var errPodLost = errors.New("pod lost")

// Exec implements validate.Runner: one Job runs the verification; its
// output streams into out; the result trailer at its end is read like a
// Docker run's. A pod lost before it finished is run again, once.
func (r *Runner) Exec(ctx context.Context, spec validate.ExecSpec, out validate.Output) (*validate.ExecResult, error) {
	cfg := spec.Config
	if cfg != nil && cfg.Verifier != nil {
		return nil, validate.Infra(errors.New("a separate verifier environment ([verifier.environment]) does not run on the kubernetes engine yet; use the Docker engine"))
	}
	stdout := out.Stdout
	if stdout == nil {
		stdout = io.Discard
	}
	fmt.Fprintln(stdout, r.network(cfg, spec.Oracle).note)
	for try := 0; ; try++ {
		res, err := r.execOnce(ctx, spec, stdout, out.Waiting)
		if errors.Is(err, errPodLost) && try == 0 && ctx.Err() == nil {
			fmt.Fprintf(stdout, "\ncurate: %v; the run is retried once in a new pod\n", err)
			continue
		}
		return res, err
	}
}

func (r *Runner) execOnce(ctx context.Context, spec validate.ExecSpec, stdout io.Writer, waiting func(string)) (*validate.ExecResult, error) {
	files, err := validate.TaskFiles(spec)
	if err != nil {
		return nil, &validate.BuildError{Phase: "task files", Msg: err.Error()}
	}
	name := jobName(spec.Labels[validate.LabelRun])
	res := &validate.ExecResult{Container: name, TestExit: -1}
	run := &jobRun{r: r, spec: spec, name: name, limits: r.limits(spec.Config), net: r.network(spec.Config, spec.Oracle)}
	tm := &run.timing
	tm.start = time.Now()
	defer func() {
		run.delete()
		tm.deleted = time.Now()
		if l := tm.line(); l != "" {
			fmt.Fprintln(stdout, l)
		}
	}()
	if err := run.create(ctx, files, validate.TaskScript(spec)); err != nil {
		return res, err
	}
	tm.created = time.Now()
	tap := validate.NewResultTap(stdout)
	term, err := run.follow(ctx, tap, waiting)
	tap.Flush()
	if err != nil {
		return res, err
	}
	tm.pull = run.pullTime(ctx, run.podName)
	res.ExitCode = int(term.ExitCode)
	if term.Reason == "OOMKilled" {
		res.OOMKilledMB = run.limits.MemoryMB
	}
	if res.ExitCode == 97 && !tap.Found() {
		return res, validate.Infra(errors.New("the image cannot unpack the task files (no tar?)"))
	}
	// No trailer, or a script that did not reach its end (killed, e.g.
	// out of memory, or by the test): the result has no reward, as a
	// Docker run without reward files.
	if res.ExitCode == 0 {
		if !tap.Found() {
			tap = rereadLog(stdout, func() (io.ReadCloser, error) { return run.fullLog(ctx) })
		}
		_ = tap.Fill(res, spec.KeepTestLog)
	}
	return res, nil
}

// jobName is a fresh Job name for a run: DNS-safe, unique per execution
// (gold runs two per run, a retry a third).
func jobName(runID string) string {
	var b [3]byte
	rand.Read(b[:])
	id := strings.Map(func(c rune) rune {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			return c
		case c >= 'A' && c <= 'Z':
			return c + ('a' - 'A')
		}
		return '-'
	}, runID)
	if len(id) > 40 {
		id = id[:40]
	}
	return strings.Trim("curate-"+id, "-") + "-" + hex.EncodeToString(b[:])
}

// follow waits for the run's pod, streams its log into w and returns its
// container's end. A Job without a pod (a quota refusal) or a pod the
// scheduler cannot place is waiting for the cluster: said in the log and
// to waiting (nil: only the log), which hears "" once the pod runs.
func (j *jobRun) follow(ctx context.Context, w io.Writer, waiting func(string)) (*corev1.ContainerStateTerminated, error) {
	var (
		streamed  bool
		seenPod   string
		lastWait  string
		logDone   = make(chan error, 1)
		startedAt = time.Now()
	)
	say := func(msg string) {
		if msg != lastWait {
			fmt.Fprintf(w, "curate: waiting for the cluster: %s\n", msg)
			lastWait = msg
			if waiting != nil {
				waiting(msg)
			}
		}
	}
	defer func() {
		if lastWait != "" && waiting != nil {
			waiting("") // placed, ended or given up: no longer waiting
		}
	}()
	t := time.NewTicker(pollEvery)
	defer t.Stop()
	// The log goroutine writes into w: it ends before follow returns.
	sctx, stop := context.WithCancel(ctx)
	drained := false
	defer func() {
		stop()
		if streamed && !drained {
			<-logDone
		}
	}()
	for {
		pod, err := j.pod(ctx)
		if err != nil {
			return nil, ctxOr(ctx, validate.Infra(err))
		}
		switch {
		case pod == nil && seenPod != "":
			return nil, fmt.Errorf("%w: pod %s was deleted before it finished", errPodLost, seenPod)
		case pod == nil:
			if time.Since(startedAt) > 3*time.Second {
				if msg := j.jobProblem(ctx); msg != "" {
					say(msg)
				}
			}
		default:
			seenPod, j.podName = pod.Name, pod.Name
			if pod.Spec.NodeName != "" && j.timing.scheduled.IsZero() {
				j.timing.scheduled = time.Now()
			}
			if pod.DeletionTimestamp != nil {
				return nil, fmt.Errorf("%w: pod %s was deleted before it finished", errPodLost, pod.Name)
			}
			if pod.Status.Phase == corev1.PodFailed && pod.Status.Reason != "" && containerState(pod).Terminated == nil {
				return nil, fmt.Errorf("%w: pod %s %s: %s", errPodLost, pod.Name, pod.Status.Reason, pod.Status.Message)
			}
			cs := containerState(pod)
			if cs.Waiting != nil && cs.Waiting.Reason != "" && cs.Waiting.Reason != "ContainerCreating" && cs.Waiting.Reason != "PodInitializing" {
				switch cs.Waiting.Reason {
				case "ErrImagePull", "ImagePullBackOff", "InvalidImageName", "CreateContainerConfigError", "CreateContainerError", "RunContainerError":
					return nil, validate.Infra(fmt.Errorf("pod %s: %s: %s", pod.Name, cs.Waiting.Reason, cs.Waiting.Message))
				}
			}
			if pod.Status.Phase == corev1.PodPending && cs.Running == nil && cs.Terminated == nil {
				if msg := unschedulable(pod); msg != "" {
					say(msg)
				}
			}
			if !streamed && (cs.Running != nil || cs.Terminated != nil) {
				streamed = true
				j.timing.running = time.Now()
				if lastWait != "" && waiting != nil {
					waiting("")
					lastWait = ""
				}
				name := pod.Name
				go func() { logDone <- j.stream(sctx, name, w) }()
			}
			if streamed && cs.Terminated != nil {
				j.timing.ended = time.Now()
				// The log ends with the container; wait for its last bytes.
				select {
				case err := <-logDone:
					drained = true
					if err != nil && ctx.Err() == nil {
						return nil, validate.Infra(fmt.Errorf("log of pod %s: %w", pod.Name, err))
					}
				case <-time.After(30 * time.Second):
				case <-ctx.Done():
					return nil, ctx.Err()
				}
				j.timing.drained = time.Now()
				return cs.Terminated, nil
			}
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-t.C:
		}
	}
}

// stream copies the pod's log, following it, into w.
func (j *jobRun) stream(ctx context.Context, pod string, w io.Writer) error {
	rc, err := j.r.cs.CoreV1().Pods(j.r.cfg.Namespace).GetLogs(pod, &corev1.PodLogOptions{Container: containerName, Follow: true}).Stream(ctx)
	if err != nil {
		return err
	}
	defer rc.Close()
	_, err = io.Copy(w, rc)
	return err
}

// pod is the run's pod, nil when there is none (yet, or any more).
func (j *jobRun) pod(ctx context.Context) (*corev1.Pod, error) {
	list, err := j.r.cs.CoreV1().Pods(j.r.cfg.Namespace).List(ctx, listBy(LabelExec, j.name))
	if err != nil {
		return nil, fmt.Errorf("list pods of %s: %w", j.name, err)
	}
	if len(list.Items) == 0 {
		return nil, nil
	}
	return &list.Items[0], nil
}

// jobProblem is why the Job has no pod yet: its latest warning event
// (a ResourceQuota refusal, for one).
func (j *jobRun) jobProblem(ctx context.Context) string {
	ev, err := j.r.cs.CoreV1().Events(j.r.cfg.Namespace).List(ctx, fieldSel("involvedObject.name="+j.name))
	if err != nil || len(ev.Items) == 0 {
		return "no pod yet"
	}
	last := ev.Items[len(ev.Items)-1]
	return last.Reason + ": " + last.Message
}

func containerState(pod *corev1.Pod) corev1.ContainerState {
	for _, cs := range pod.Status.ContainerStatuses {
		if cs.Name == containerName {
			return cs.State
		}
	}
	return corev1.ContainerState{}
}

// unschedulable is the scheduler's reason a pod waits, "" when it does not.
func unschedulable(pod *corev1.Pod) string {
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.PodScheduled && c.Status == corev1.ConditionFalse {
			return c.Reason + ": " + c.Message
		}
	}
	return ""
}

func ctxOr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

func isNotFound(err error) bool { return apierrors.IsNotFound(err) }
