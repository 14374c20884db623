package kube

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"curate/pipeline/validate"
)

const (
	containerName = "run"
	taskMount     = "/curate-task"
	// chunk is the bytes of task files per ConfigMap: under the 1 MiB
	// object limit with room for metadata.
	chunk = 900 << 10
	// deleteWait bounds waiting for a deleted Job's pods to go.
	deleteWait = 90 * time.Second
)

// DefaultRequests are what a pod asks the scheduler for when [kubernetes]
// requests says nothing. Without requests Kubernetes would reserve the
// whole limit, and a node would take few runs at once.
var DefaultRequests = map[string]string{"cpu": "250m", "memory": "256Mi"}

// jobRun is one execution: its Job, ConfigMaps and NetworkPolicy share
// the name and the LabelExec label.
type jobRun struct {
	r      *Runner
	spec   validate.ExecSpec
	name   string
	limits validate.Limits
	net    runNetwork // netpolicy.go
	// podName is the Job's pod once seen; timing where the time went.
	podName string
	timing  timing
}

func (j *jobRun) labels() map[string]string {
	l := map[string]string{LabelManaged: "true", LabelWorkspace: j.r.workspace, LabelExec: j.name, LabelNetwork: j.net.label}
	if id := j.spec.Labels[validate.LabelRun]; id != "" {
		l[LabelRun] = id
	}
	return l
}

func (j *jobRun) meta(name string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Name: name, Namespace: j.r.cfg.Namespace, Labels: j.labels(),
		Annotations: map[string]string{AnnotationTask: j.spec.Labels[validate.LabelTask]}}
}

// create makes the ConfigMaps holding the task files and script, the
// NetworkPolicy fencing the pod (netpolicy.go) and the Job.
func (j *jobRun) create(ctx context.Context, files []byte, script string) error {
	ns := j.r.cfg.Namespace
	var sources []corev1.VolumeProjection
	for i := 0; i == 0 || i*chunk < len(files); i++ {
		part := files[i*chunk : min((i+1)*chunk, len(files))]
		cm := &corev1.ConfigMap{ObjectMeta: j.meta(fmt.Sprintf("%s-%d", j.name, i)),
			BinaryData: map[string][]byte{fmt.Sprintf("part-%05d", i): part}}
		if i == 0 {
			cm.Data = map[string]string{"script.sh": script}
		}
		if _, err := j.r.cs.CoreV1().ConfigMaps(ns).Create(ctx, cm, metav1.CreateOptions{}); err != nil {
			return ctxOr(ctx, validate.Infra(fmt.Errorf("create ConfigMap %s: %w", cm.Name, err)))
		}
		sources = append(sources, corev1.VolumeProjection{ConfigMap: &corev1.ConfigMapProjection{
			LocalObjectReference: corev1.LocalObjectReference{Name: cm.Name}}})
	}
	if err := j.applyPolicy(ctx); err != nil { // netpolicy.go
		return err
	}
	job, err := j.job(ctx, sources)
	if err != nil {
		return err
	}
	if _, err := j.r.cs.BatchV1().Jobs(ns).Create(ctx, job, metav1.CreateOptions{}); err != nil {
		return ctxOr(ctx, validate.Infra(fmt.Errorf("create Job %s: %w", j.name, err)))
	}
	return nil
}

// job is the run's Job: one pod, never restarted, contained like a
// Docker run (see validate/contain.go).
func (j *jobRun) job(ctx context.Context, sources []corev1.VolumeProjection) (*batchv1.Job, error) {
	cfg := j.spec.Config
	if cfg == nil {
		cfg = &validate.TaskConfig{}
	}
	var env []corev1.EnvVar
	for k, v := range cfg.Env {
		env = append(env, corev1.EnvVar{Name: k, Value: v})
	}
	env = append(env, j.net.proxyEnv()...)
	sort.Slice(env, func(a, b int) bool { return env[a].Name < env[b].Name })
	lim := corev1.ResourceList{
		corev1.ResourceMemory: *resource.NewQuantity(j.limits.MemoryMB<<20, resource.BinarySI),
		corev1.ResourceCPU:    *resource.NewMilliQuantity(int64(j.limits.CPUs*1000), resource.DecimalSI),
	}
	req := corev1.ResourceList{}
	requests := map[string]string{"cpu": DefaultRequests["cpu"], "memory": DefaultRequests["memory"]}
	for k, v := range j.r.cfg.Requests {
		requests[k] = v
	}
	for k, v := range requests {
		q, err := resource.ParseQuantity(v)
		if err != nil {
			return nil, fmt.Errorf("kubernetes.requests.%s %q: %w", k, v, err)
		}
		name := corev1.ResourceName(k)
		if l, ok := lim[name]; ok && q.Cmp(l) > 0 {
			q = l // a request above the run's limit is refused by the API
		}
		req[name] = q
	}
	sec := &corev1.SecurityContext{
		AllowPrivilegeEscalation: ptr(false),
		Privileged:               ptr(false),
		Capabilities:             &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}},
		SeccompProfile:           &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault},
	}
	for _, c := range validate.KeptCaps {
		sec.Capabilities.Add = append(sec.Capabilities.Add, corev1.Capability(c))
	}
	if uid, gid, ok := numericUser(cfg.User); ok {
		sec.RunAsUser = &uid
		if gid >= 0 {
			sec.RunAsGroup = &gid
		}
	}
	tmpSize := resource.NewQuantity(max(j.limits.MemoryMB/2, 64)<<20, resource.BinarySI)
	pod := corev1.PodSpec{
		RestartPolicy:                 corev1.RestartPolicyNever,
		AutomountServiceAccountToken:  ptr(false),
		EnableServiceLinks:            ptr(false),
		TerminationGracePeriodSeconds: ptr(int64(2)),
		Containers: []corev1.Container{{
			Name:            containerName,
			Image:           j.spec.Image,
			ImagePullPolicy: corev1.PullIfNotPresent,
			// The script unpacks the task files (in ConfigMap parts, in
			// order) from its stdin, as a Docker run's does.
			Command:         []string{"/bin/sh", "-c", "cat " + taskMount + "/part-* | /bin/sh " + taskMount + "/script.sh"},
			Env:             env,
			WorkingDir:      cfg.Workdir,
			Resources:       corev1.ResourceRequirements{Limits: lim, Requests: req},
			SecurityContext: sec,
			VolumeMounts: []corev1.VolumeMount{
				{Name: "task", MountPath: taskMount, ReadOnly: true},
				{Name: "tmp", MountPath: "/tmp"},
			},
		}},
		Volumes: []corev1.Volume{
			{Name: "task", VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{Sources: sources}}},
			{Name: "tmp", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{Medium: corev1.StorageMediumMemory, SizeLimit: tmpSize}}},
		},
	}
	if s := j.r.cfg.PullSecret; s != "" {
		pod.ImagePullSecrets = []corev1.LocalObjectReference{{Name: s}}
	}
	// The run's own timeout stops it first; the deadline is the cluster's
	// guarantee should curate die.
	deadline := int64(3600)
	if d, ok := ctx.Deadline(); ok {
		deadline = int64(time.Until(d).Seconds()) + 30
	}
	meta := j.meta(j.name)
	return &batchv1.Job{
		ObjectMeta: meta,
		Spec: batchv1.JobSpec{
			BackoffLimit:            ptr(int32(0)),
			ActiveDeadlineSeconds:   &deadline,
			TTLSecondsAfterFinished: ptr(int32(deadline)),
			Template:                corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: meta.Labels, Annotations: meta.Annotations}, Spec: pod},
		},
	}, nil
}

// numericUser reads "uid" or "uid:gid"; a pod can only run as numbers.
func numericUser(u string) (uid, gid int64, ok bool) {
	if u == "" {
		return 0, 0, false
	}
	a, b, hasGroup := strings.Cut(u, ":")
	uid, err := strconv.ParseInt(a, 10, 64)
	if err != nil {
		return 0, 0, false
	}
	gid = -1
	if hasGroup {
		if gid, err = strconv.ParseInt(b, 10, 64); err != nil {
			return 0, 0, false
		}
	}
	return uid, gid, true
}

// delete removes the Job (foreground: its pod first), its ConfigMaps and
// NetworkPolicy, and waits until no pod of it is left, even when the
// run's context has ended.
func (j *jobRun) delete() {
	ctx, cancel := context.WithTimeout(context.Background(), deleteWait)
	defer cancel()
	_ = j.r.deleteExec(ctx, j.name)
}

// deleteExec deletes every object of one execution and waits for its pods.
func (r *Runner) deleteExec(ctx context.Context, name string) error {
	ns := r.cfg.Namespace
	sel := listBy(LabelExec, name)
	fg := metav1.DeletePropagationForeground
	var errs []error
	if err := r.cs.BatchV1().Jobs(ns).Delete(ctx, name, metav1.DeleteOptions{PropagationPolicy: &fg, GracePeriodSeconds: ptr(int64(2))}); err != nil && !isNotFound(err) {
		errs = append(errs, fmt.Errorf("delete Job %s: %w", name, err))
	}
	if err := r.cs.CoreV1().ConfigMaps(ns).DeleteCollection(ctx, metav1.DeleteOptions{}, sel); err != nil {
		errs = append(errs, fmt.Errorf("delete ConfigMaps of %s: %w", name, err))
	}
	if err := r.cs.NetworkingV1().NetworkPolicies(ns).DeleteCollection(ctx, metav1.DeleteOptions{}, sel); err != nil {
		errs = append(errs, fmt.Errorf("delete NetworkPolicy of %s: %w", name, err))
	}
	for {
		pods, err := r.cs.CoreV1().Pods(ns).List(ctx, sel)
		_, jerr := r.cs.BatchV1().Jobs(ns).Get(ctx, name, metav1.GetOptions{})
		if err == nil && len(pods.Items) == 0 && isNotFound(jerr) {
			return errors.Join(errs...)
		}
		select {
		case <-ctx.Done():
			return errors.Join(append(errs, fmt.Errorf("job %s still there: %w", name, ctx.Err()))...)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// RemoveOrphanContainers deletes this workspace's Jobs (and their
// ConfigMaps and NetworkPolicies) whose run no live curate owns: those of
// a curate that was killed. It is how recovery finds runs on a cluster.
func (r *Runner) RemoveOrphanContainers(ctx context.Context, keep func(runID string) bool) (int, error) {
	ns := r.cfg.Namespace
	sel := metav1.ListOptions{LabelSelector: LabelManaged + "=true," + LabelWorkspace + "=" + r.workspace}
	execs := map[string]bool{}
	jobs, err := r.cs.BatchV1().Jobs(ns).List(ctx, sel)
	if err != nil {
		return 0, validate.Infra(fmt.Errorf("list Jobs: %w", err))
	}
	for _, o := range jobs.Items {
		if !keep(o.Labels[LabelRun]) {
			execs[o.Labels[LabelExec]] = true
		}
	}
	n := len(execs)
	// ConfigMaps made by a curate killed before it made the Job.
	cms, err := r.cs.CoreV1().ConfigMaps(ns).List(ctx, sel)
	if err != nil {
		return 0, validate.Infra(fmt.Errorf("list ConfigMaps: %w", err))
	}
	for _, o := range cms.Items {
		if !keep(o.Labels[LabelRun]) {
			execs[o.Labels[LabelExec]] = true
		}
	}
	nps, err := r.cs.NetworkingV1().NetworkPolicies(ns).List(ctx, sel)
	if err != nil {
		return 0, validate.Infra(fmt.Errorf("list NetworkPolicies: %w", err))
	}
	for _, o := range nps.Items {
		if !keep(o.Labels[LabelRun]) {
			execs[o.Labels[LabelExec]] = true
		}
	}
	var errs []error
	for name := range execs {
		if name == "" {
			continue
		}
		if err := r.deleteExec(ctx, name); err != nil {
			errs = append(errs, err)
		}
	}
	return n, errors.Join(errs...)
}

func listBy(key, value string) metav1.ListOptions {
	return metav1.ListOptions{LabelSelector: key + "=" + value}
}

func fieldSel(s string) metav1.ListOptions { return metav1.ListOptions{FieldSelector: s} }

func ptr[T any](v T) *T { return &v }
