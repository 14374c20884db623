// Package kube runs validation on a Kubernetes cluster: a validate.Runner
// whose images are built by the local Docker engine, pushed to a registry
// by digest, and whose runs are one Job each. It is the only package that
// imports client-go, so only the validate path pays for compiling it.
package kube

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"sync"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"curate/pipeline/validate"
)

// Config is curate.toml's [kubernetes] section, resolved.
type Config struct {
	Kubeconfig string // "" = KUBECONFIG or ~/.kube/config
	Context    string // "" = the kubeconfig's current context
	Namespace  string // "" = the context's namespace, else "default"
	Registry   string // host[:port][/path] the cluster pulls from
	PullSecret string // name of an image pull secret in Namespace
	// Requests are what each pod asks the scheduler for (cpu, memory as
	// Kubernetes quantities); limits come from the task or Limits.
	Requests map[string]string
	Limits   validate.Limits
	// Caps are the workspace's ceilings ([docker] max_*); zero fields
	// take DefaultCaps of the largest node.
	Caps validate.Caps
	// TaskNetwork is [docker] task_network; EgressProxy [kubernetes]
	// egress_proxy, "IP:port" (netpolicy.go).
	TaskNetwork string
	EgressProxy string
	// Builder is who builds task images: BuilderDocker ("" too), the
	// local engine, or BuilderBuildKit, buildkitd in the cluster
	// (bkimage.go) at BuildKitAddr ("" = through a port forward to the
	// one `curate env buildkit install` made in Namespace).
	Builder      string
	BuildKitAddr string
}

// Labels on every object the runner makes; values are label-safe (the
// workspace is a hash of its path, run ids are already safe).
const (
	LabelManaged   = "curate.managed"
	LabelWorkspace = "curate.workspace"
	LabelRun       = "curate.run"
	LabelExec      = "curate.exec"
	LabelNetwork   = "curate.network"
	AnnotationTask = "curate.task"
)

// Runner is a validate.Runner on a Kubernetes cluster.
type Runner struct {
	cs        kubernetes.Interface
	rest      *rest.Config
	docker    *validate.DockerRunner // nil with builder = "buildkit"
	wsPath    string                 // the workspace, as image tags hash it
	bk        buildkitConn
	cfg       Config
	host      string
	workspace string // label value

	capsOnce sync.Once
	nodeCaps validate.Caps

	mu     sync.Mutex
	pushed map[string]string      // local image -> registry reference by digest
	locks  map[string]*sync.Mutex // one push per local image at a time
	// PushOut receives a line per pushed image (bytes sent); nil = none.
	PushOut io.Writer
}

// Open connects to the cluster of cfg. Images are built by docker (the
// local engine; nil with builder = "buildkit") and pushed to
// cfg.Registry; workspace labels what it makes.
func Open(cfg Config, docker *validate.DockerRunner, workspace string) (*Runner, error) {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	if cfg.Kubeconfig != "" {
		rules.ExplicitPath = cfg.Kubeconfig
	}
	cc := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, &clientcmd.ConfigOverrides{CurrentContext: cfg.Context})
	rc, err := cc.ClientConfig()
	if err != nil {
		return nil, validate.Infra(fmt.Errorf("kubernetes client config: %w", err))
	}
	if cfg.Namespace == "" {
		ns, _, err := cc.Namespace()
		if err != nil || ns == "" {
			ns = "default"
		}
		cfg.Namespace = ns
	}
	if cfg.Registry == "" {
		return nil, fmt.Errorf("kubernetes: no registry set ([kubernetes] registry): the cluster pulls task images from it")
	}
	return newRunner(rc, cfg, docker, workspace)
}

func newRunner(rc *rest.Config, cfg Config, docker *validate.DockerRunner, workspace string) (*Runner, error) {
	rc.QPS, rc.Burst = 50, 100 // polling several runs at once
	cs, err := kubernetes.NewForConfig(rc)
	if err != nil {
		return nil, validate.Infra(fmt.Errorf("kubernetes client: %w", err))
	}
	return &Runner{
		cs: cs, rest: rc, docker: docker, cfg: cfg, workspace: WorkspaceLabel(workspace), wsPath: workspace,
		host:   "kubernetes " + rc.Host + "/" + cfg.Namespace,
		pushed: map[string]string{}, locks: map[string]*sync.Mutex{},
	}, nil
}

// WorkspaceLabel is the label value naming a workspace (a path is not a
// valid label value).
func WorkspaceLabel(workspace string) string {
	h := sha256.Sum256([]byte(workspace))
	return "ws-" + hex.EncodeToString(h[:])[:16]
}

// Host implements validate.Runner.
func (r *Runner) Host() string { return r.host }

// Namespace is where the runs go.
func (r *Runner) Namespace() string { return r.cfg.Namespace }

// Clientset exposes the client (tests and checks).
func (r *Runner) Clientset() kubernetes.Interface { return r.cs }

// Close releases the Docker client, or the BuildKit client and its port
// forward.
func (r *Runner) Close() error {
	r.closeBuildKit()
	if r.docker == nil {
		return nil
	}
	return r.docker.Close()
}

// Answers implements validate.Checker: the API server is ready.
func (r *Runner) Answers(ctx context.Context) error {
	body, err := r.cs.Discovery().RESTClient().Get().AbsPath("/readyz").DoRaw(ctx)
	if err != nil {
		return fmt.Errorf("kubernetes API %s: %w", r.host, err)
	}
	if string(body) != "ok" {
		return fmt.Errorf("kubernetes API %s not ready: %s", r.host, body)
	}
	return nil
}

// Ping is Answers as an infrastructure error.
func (r *Runner) Ping(ctx context.Context) error {
	if err := r.Answers(ctx); err != nil {
		return validate.Infra(err)
	}
	return nil
}

// Image implements validate.Runner: the local engine builds the task's
// image, then it is pushed to the registry; or, with builder =
// "buildkit", buildkitd builds and pushes it. The reference is by digest.
func (r *Runner) Image(ctx context.Context, taskDir string, out io.Writer) (string, bool, error) {
	if r.cfg.Builder == BuilderBuildKit {
		return r.buildKitImage(ctx, taskDir, out)
	}
	local, built, err := r.docker.Image(ctx, taskDir, out)
	if err != nil {
		return "", built, err
	}
	ref, _, err := r.Push(ctx, local, out)
	return ref, built, err
}

// Publish makes sure the registry holds the task's image: built on the
// local engine when missing and pushed (bytes sent), or with builder =
// "buildkit" built and pushed by buildkitd (bytes not counted: 0).
func (r *Runner) Publish(ctx context.Context, taskDir string, out io.Writer) (string, int64, error) {
	if r.cfg.Builder == BuilderBuildKit {
		ref, _, err := r.buildKitImage(ctx, taskDir, out)
		return ref, 0, err
	}
	local, _, err := r.docker.Image(ctx, taskDir, out)
	if err != nil {
		return "", 0, err
	}
	return r.Push(ctx, local, nil)
}
