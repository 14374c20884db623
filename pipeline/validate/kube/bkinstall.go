package kube

import (
	"context"
	"fmt"
	"hash/fnv"
	"io"
	"strconv"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"curate/pipeline/validate"
)

// The buildkitd `curate env buildkit install` puts in the namespace: a
// Deployment of one privileged pod (buildkitd's runc worker makes
// containers for RUN steps), its state in an emptyDir, a ConfigMap with
// its configuration and a Service. It carries no curate.managed label:
// it is not a run's object, so recovery and the leftovers check leave it.
const (
	BuildKitName     = "curate-buildkitd"
	BuildKitSelector = "app.kubernetes.io/name=" + BuildKitName
	BuildKitPort     = 1234
	// AnnotationBuildKitPort on the pod says where buildkitd listens.
	AnnotationBuildKitPort = "curate.buildkit-port"
	// DefaultBuildKitImage is the upstream image of the client's version.
	DefaultBuildKitImage = "docker.io/moby/buildkit:v0.34.2"
)

// BuildKitConfig is buildkitd.toml for a registry: a registry on the
// node's loopback is reached over plain HTTP, as the nodes pull from it.
func BuildKitConfig(registry string) string {
	host, _, _ := strings.Cut(registry, "/")
	var b strings.Builder
	b.WriteString("[worker.containerd]\n  enabled = false\n[worker.oci]\n  enabled = true\n  gc = true\n")
	if loopbackRegistry(host) {
		fmt.Fprintf(&b, "[registry.%s]\n  http = true\n  insecure = true\n", strconv.Quote(host))
	}
	return b.String()
}

// InstallBuildKit makes or updates buildkitd in the runner's namespace
// from image and waits until it answers a build client. A registry on
// the node's loopback (a single-node or CI cluster) is reached from the
// node's own network, so the pod then shares it and listens on loopback
// only; else it has the pod network and the Service reaches it.
func (r *Runner) InstallBuildKit(ctx context.Context, image string, out io.Writer) error {
	out = orDiscard(out)
	ns := r.cfg.Namespace
	host, _, _ := strings.Cut(r.cfg.Registry, "/")
	hostNet := loopbackRegistry(host)
	listen, port := "0.0.0.0", BuildKitPort
	if hostNet {
		// On the node's network each namespace's buildkitd needs a port of
		// its own (two on one node would clash on 1234).
		listen, port = "127.0.0.1", hostNetworkPort(ns)
	}
	labels := map[string]string{"app.kubernetes.io/name": BuildKitName}
	meta := metav1.ObjectMeta{Name: BuildKitName, Namespace: ns, Labels: labels}
	cm := &corev1.ConfigMap{ObjectMeta: meta, Data: map[string]string{"buildkitd.toml": BuildKitConfig(r.cfg.Registry)}}
	privileged := true
	one := int32(1)
	dep := &appsv1.Deployment{ObjectMeta: meta, Spec: appsv1.DeploymentSpec{
		Replicas: &one,
		Selector: &metav1.LabelSelector{MatchLabels: labels},
		// The state is the pod's own (an emptyDir): two pods never share it.
		Strategy: appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType},
		Template: corev1.PodTemplateSpec{
			ObjectMeta: metav1.ObjectMeta{Labels: labels, Annotations: map[string]string{
				"curate.buildkit-config": BuildKitConfig(r.cfg.Registry), AnnotationBuildKitPort: strconv.Itoa(port)}},
			Spec: corev1.PodSpec{
				HostNetwork:                  hostNet,
				AutomountServiceAccountToken: new(bool),
				Containers: []corev1.Container{{
					Name: "buildkitd", Image: image,
					Args: []string{"--addr", fmt.Sprintf("tcp://%s:%d", listen, port), "--config", "/etc/buildkit/buildkitd.toml",
						"--oci-worker-net=host", "--oci-worker-snapshotter=overlayfs"},
					SecurityContext: &corev1.SecurityContext{Privileged: &privileged},
					Ports:           []corev1.ContainerPort{{Name: "buildkit", ContainerPort: int32(port)}},
					VolumeMounts: []corev1.VolumeMount{
						{Name: "state", MountPath: "/var/lib/buildkit"},
						{Name: "config", MountPath: "/etc/buildkit"},
					},
				}},
				Volumes: []corev1.Volume{
					// overlayfs snapshots need a folder that is not itself on overlayfs.
					{Name: "state", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}},
					{Name: "config", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: BuildKitName}}}},
				},
			},
		},
	}}
	svc := &corev1.Service{ObjectMeta: meta, Spec: corev1.ServiceSpec{Selector: labels,
		Ports: []corev1.ServicePort{{Name: "buildkit", Port: BuildKitPort, TargetPort: intstr.FromInt(port)}}}}
	if err := r.applyBuildKit(ctx, cm, dep, svc); err != nil {
		return validate.Infra(err)
	}
	fmt.Fprintf(out, "buildkitd: deployment %s/%s from %s (host network: %v)\n", ns, BuildKitName, image, hostNet)
	return r.waitBuildKit(ctx, out)
}

// hostNetworkPort is the port of a namespace's buildkitd on the node's
// network: 20000-29999, from a hash of the namespace.
func hostNetworkPort(namespace string) int {
	h := fnv.New32a()
	h.Write([]byte(namespace))
	return 20000 + int(h.Sum32()%10000)
}

// applyBuildKit creates the objects, or updates those that exist.
func (r *Runner) applyBuildKit(ctx context.Context, cm *corev1.ConfigMap, dep *appsv1.Deployment, svc *corev1.Service) error {
	ns := r.cfg.Namespace
	cms, deps, svcs := r.cs.CoreV1().ConfigMaps(ns), r.cs.AppsV1().Deployments(ns), r.cs.CoreV1().Services(ns)
	if old, err := cms.Get(ctx, cm.Name, metav1.GetOptions{}); err == nil {
		cm.ResourceVersion = old.ResourceVersion
		_, err = cms.Update(ctx, cm, metav1.UpdateOptions{})
		if err != nil {
			return fmt.Errorf("update configmap %s: %w", cm.Name, err)
		}
	} else if _, err := cms.Create(ctx, cm, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("create configmap %s: %w", cm.Name, err)
	}
	if old, err := deps.Get(ctx, dep.Name, metav1.GetOptions{}); err == nil {
		dep.ResourceVersion = old.ResourceVersion
		if _, err := deps.Update(ctx, dep, metav1.UpdateOptions{}); err != nil {
			return fmt.Errorf("update deployment %s: %w", dep.Name, err)
		}
	} else if _, err := deps.Create(ctx, dep, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("create deployment %s: %w", dep.Name, err)
	}
	if _, err := svcs.Create(ctx, svc, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("create service %s: %w", svc.Name, err)
	}
	return nil
}

// waitBuildKit waits until buildkitd answers a client and lists a worker.
func (r *Runner) waitBuildKit(ctx context.Context, out io.Writer) error {
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	var last error
	for ctx.Err() == nil {
		last = r.pingBuildKit(ctx)
		if last == nil {
			fmt.Fprintf(out, "buildkitd: answers after %s\n", time.Since(start).Round(100*time.Millisecond))
			return nil
		}
		time.Sleep(time.Second)
	}
	return validate.Infra(fmt.Errorf("buildkitd in namespace %s did not answer in 3 minutes: %w", r.cfg.Namespace, last))
}

// pingBuildKit connects afresh and lists buildkitd's workers.
func (r *Runner) pingBuildKit(ctx context.Context) error {
	r.closeBuildKit()
	r.bk = buildkitConn{}
	cli, err := r.buildkit(ctx)
	if err != nil {
		return err
	}
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	ws, err := cli.ListWorkers(pctx)
	if err == nil && len(ws) == 0 {
		err = fmt.Errorf("no workers")
	}
	return err
}
