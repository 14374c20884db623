// Package kubeengine registers the kubernetes engine with app: importing
// it makes `--engine kubernetes` work. It is kept apart from app so that
// client-go is compiled only into what runs validation.
package kubeengine

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"curate/app"
	"curate/pipeline/taskvalue"
	"curate/pipeline/validate"
	"curate/pipeline/validate/kube"
	"curate/workspace"
)

// Name is the engine's name for --engine.
const Name = "kubernetes"

func init() { app.RegisterEngine(Name, open) }

// Config is the runner configuration of a workspace's [kubernetes].
func Config(ws *workspace.Workspace) kube.Config {
	k := ws.Config.Kube
	lim := app.ContainerLimits(ws)
	if k.Memory != "" {
		if mb, err := taskvalue.Check("kubernetes.memory", taskvalue.Spec{Kind: taskvalue.Size}, k.Memory); err == nil {
			lim.MemoryMB = int64(mb.(float64))
		}
	}
	if k.CPUs > 0 {
		lim.CPUs = k.CPUs
	}
	kc := k.Kubeconfig
	if kc != "" && !filepath.IsAbs(kc) {
		kc = filepath.Join(ws.Root, kc) // relative to curate.toml
	}
	return kube.Config{Kubeconfig: kc, Context: k.Context, Namespace: k.Namespace,
		Registry: k.Registry, PullSecret: k.PullSecret, Requests: k.Requests, Limits: lim,
		Caps:        app.WorkspaceCaps(ws.Config.Docker.CapsConfig),
		TaskNetwork: ws.Config.Docker.TaskNetwork, EgressProxy: k.EgressProxy,
		Builder: k.Builder, BuildKitAddr: k.BuildKitAddr}
}

// Open connects to the workspace's cluster, with the local Docker engine
// building the images it pushes, or none with builder = "buildkit".
func Open(ctx context.Context, ws *workspace.Workspace, warn io.Writer) (*kube.Runner, error) {
	var d *validate.DockerRunner
	if ws.Config.Kube.Builder != kube.BuilderBuildKit {
		dockers, err := app.OpenRunners(ctx, ws, app.DockerHosts(ws, nil)[:1], warn)
		if err != nil {
			return nil, fmt.Errorf("kubernetes engine: images are built by a Docker engine ([kubernetes] builder = \"buildkit\" builds them in the cluster): %w", err)
		}
		d = dockers[0]
	}
	r, err := kube.Open(Config(ws), d, ws.Root)
	if err != nil {
		if d != nil {
			d.Close()
		}
		return nil, err
	}
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := r.Ping(pctx); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

func open(ctx context.Context, ws *workspace.Workspace, warn io.Writer) (*app.OpenedEngine, error) {
	r, err := Open(ctx, ws, warn)
	if err != nil {
		return nil, err
	}
	par := ws.Config.Kube.Parallelism
	if par <= 0 {
		par = max(ws.Config.Docker.Concurrency, 1) // a cluster's room is [kubernetes] parallelism's to say
	}
	return &app.OpenedEngine{Runners: []validate.Runner{r}, Concurrency: par, Close: func() { r.Close() }}, nil
}
