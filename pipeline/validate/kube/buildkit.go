package kube

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/go-logr/logr"
	bkclient "github.com/moby/buildkit/client"
	"github.com/tonistiigi/fsutil"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/portforward"
	"k8s.io/client-go/transport/spdy"
	"k8s.io/klog/v2"

	"curate/pipeline/validate"
)

// Builders of task images on a Kubernetes engine ([kubernetes] builder).
const (
	BuilderDocker   = "docker"   // the local Docker engine builds, then pushes
	BuilderBuildKit = "buildkit" // a buildkitd in the cluster builds and pushes
)

// buildkitConn is the runner's connection to buildkitd, made on the first
// build: to Config.BuildKitAddr, else through the API server's port
// forward to the pod `curate env buildkit install` made.
type buildkitConn struct {
	once sync.Once
	cli  *bkclient.Client
	stop context.CancelFunc // ends the port forward; nil without one
	err  error
}

// buildkit returns the connected client.
func (r *Runner) buildkit(ctx context.Context) (*bkclient.Client, error) {
	c := &r.bk
	c.once.Do(func() {
		addr := r.cfg.BuildKitAddr
		if addr == "" {
			addr, c.stop, c.err = r.forwardBuildKit(ctx)
			if c.err != nil {
				return
			}
		}
		c.cli, c.err = bkclient.New(context.WithoutCancel(ctx), addr)
		if c.err != nil {
			c.err = validate.Infra(fmt.Errorf("buildkit at %s: %w", addr, c.err))
		}
	})
	return c.cli, c.err
}

// closeBuildKit ends the connection and its port forward.
func (r *Runner) closeBuildKit() {
	if r.bk.cli != nil {
		r.bk.cli.Close()
	}
	if r.bk.stop != nil {
		r.bk.stop()
	}
}

// forwardBuildKit forwards a local port to a ready buildkitd pod of the
// namespace (the one `curate env buildkit install` made) through the API
// server, so curate reaches it from outside the cluster with the
// kubeconfig alone.
func (r *Runner) forwardBuildKit(ctx context.Context) (string, context.CancelFunc, error) {
	pods, err := r.cs.CoreV1().Pods(r.cfg.Namespace).List(ctx, metav1.ListOptions{LabelSelector: BuildKitSelector})
	if err != nil {
		return "", nil, validate.Infra(fmt.Errorf("find buildkitd in namespace %s: %w", r.cfg.Namespace, err))
	}
	pod, port := "", BuildKitPort
	for _, p := range pods.Items {
		if p.Status.Phase == corev1.PodRunning && p.DeletionTimestamp == nil && podReady(&p) {
			pod = p.Name
			if n, err := strconv.Atoi(p.Annotations[AnnotationBuildKitPort]); err == nil {
				port = n
			}
			break
		}
	}
	if pod == "" {
		return "", nil, validate.Infra(fmt.Errorf("no ready buildkitd pod in namespace %s (%s): install one with `curate env buildkit install`, or set [kubernetes] buildkit_addr", r.cfg.Namespace, BuildKitSelector))
	}
	transport, upgrader, err := spdy.RoundTripperFor(r.rest)
	if err != nil {
		return "", nil, validate.Infra(fmt.Errorf("port forward to %s: %w", pod, err))
	}
	url := r.cs.CoreV1().RESTClient().Post().Resource("pods").Namespace(r.cfg.Namespace).Name(pod).SubResource("portforward").URL()
	dialer := spdy.NewDialer(upgrader, &http.Client{Transport: transport}, http.MethodPost, url)
	ready := make(chan struct{})
	var errs strings.Builder
	// The forward's own logger is silenced: it logs the end of every
	// connection (an EOF when the build client closes) as an error.
	fctx, stop := context.WithCancel(klog.NewContext(context.Background(), logr.Discard()))
	fw, err := portforward.NewOnAddressesWithContext(fctx, dialer, []string{"127.0.0.1"}, []string{fmt.Sprintf("0:%d", port)}, ready, io.Discard, &errs)
	if err != nil {
		stop()
		return "", nil, validate.Infra(fmt.Errorf("port forward to %s: %w", pod, err))
	}
	failed := make(chan error, 1)
	go func() { failed <- fw.ForwardPorts() }()
	select {
	case <-ready:
	case err := <-failed:
		stop()
		return "", nil, validate.Infra(fmt.Errorf("port forward to %s: %v %s", pod, err, errs.String()))
	case <-ctx.Done():
		stop()
		return "", nil, ctx.Err()
	}
	ports, err := fw.GetPorts()
	if err != nil || len(ports) == 0 {
		stop()
		return "", nil, validate.Infra(fmt.Errorf("port forward to %s: no local port (%v)", pod, err))
	}
	return fmt.Sprintf("tcp://127.0.0.1:%d", ports[0].Local), stop, nil
}

func podReady(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// bkBuild is one Dockerfile build by buildkitd, pushed as remote.
type bkBuild struct {
	remote     string            // host/repo:tag to push
	contextDir string            // the build context on this machine
	dockerfile string            // its name in contextDir
	cacheRef   string            // registry cache, imported and exported
	named      map[string]string // FROM name -> docker-image://ref
	network    bool              // RUN steps may use the network
}

// solve runs b on buildkitd and returns the pushed image's reference by
// digest; its progress goes to out.
func (r *Runner) solve(ctx context.Context, b bkBuild, out io.Writer) (string, error) {
	cli, err := r.buildkit(ctx)
	if err != nil {
		return "", err
	}
	fs, err := fsutil.NewFS(b.contextDir)
	if err != nil {
		return "", err
	}
	attrs := map[string]string{"filename": b.dockerfile}
	if !b.network {
		attrs["force-network-mode"] = "none"
	}
	for name, ref := range b.named {
		attrs["context:"+name] = ref
	}
	image := map[string]string{"name": b.remote, "push": "true"}
	cache := map[string]string{"ref": b.cacheRef}
	if host, _, _, _ := splitRemote(b.remote); loopbackRegistry(host) {
		image["registry.insecure"] = "true"
		cache["registry.insecure"] = "true"
	}
	opt := bkclient.SolveOpt{
		Frontend:      "dockerfile.v0",
		FrontendAttrs: attrs,
		LocalMounts:   map[string]fsutil.FS{"context": fs, "dockerfile": fs},
		Exports:       []bkclient.ExportEntry{{Type: bkclient.ExporterImage, Attrs: image}},
		CacheImports:  []bkclient.CacheOptionsEntry{{Type: "registry", Attrs: map[string]string{"ref": b.cacheRef}}},
		CacheExports:  []bkclient.CacheOptionsEntry{{Type: "registry", Attrs: withMode(cache)}},
	}
	status := make(chan *bkclient.SolveStatus)
	printed := make(chan string, 1)
	go func() { printed <- printProgress(status, out) }()
	resp, err := cli.Solve(ctx, nil, opt, status)
	failedStep := <-printed
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		if failedStep != "" {
			return "", &validate.BuildError{Step: failedStep, Msg: err.Error()}
		}
		return "", validate.Infra(fmt.Errorf("buildkit build of %s: %w", b.remote, err))
	}
	digest := resp.ExporterResponse["containerimage.digest"]
	if !strings.HasPrefix(digest, "sha256:") {
		return "", validate.Infra(fmt.Errorf("buildkit build of %s: no image digest in its response", b.remote))
	}
	_, repo, _, _ := splitRemote(b.remote)
	host, _, _, _ := splitRemote(b.remote)
	return host + "/" + repo + "@" + digest, nil
}

func withMode(m map[string]string) map[string]string {
	m["mode"] = "max" // every stage's layers, so a changed step reuses those before it
	return m
}

// printProgress writes each step as it starts, its output and its error,
// and returns the name of the step that failed ("" if none did). It
// drains status until the solve closes it.
func printProgress(status chan *bkclient.SolveStatus, out io.Writer) string {
	if out == nil {
		out = io.Discard
	}
	seen := map[string]bool{}
	failed := ""
	for s := range status {
		for _, v := range s.Vertexes {
			d := v.Digest.String()
			if v.Started != nil && !seen[d] {
				seen[d] = true
				fmt.Fprintf(out, "buildkit: %s\n", v.Name)
			}
			if v.Cached && v.Completed != nil && !seen["cached "+d] {
				seen["cached "+d] = true
				fmt.Fprintf(out, "buildkit: CACHED %s\n", v.Name)
			}
			if v.Error != "" && failed == "" && !strings.Contains(v.Error, "context canceled") {
				failed = v.Name
				fmt.Fprintf(out, "buildkit: %s: %s\n", v.Name, v.Error)
			}
		}
		for _, l := range s.Logs {
			out.Write(l.Data)
		}
	}
	return failed
}
