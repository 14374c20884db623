package kubeengine

import (
	"context"
	"io"

	"curate/pipeline/validate/kube"
	"curate/workspace"
)

// InstallBuildKit puts buildkitd (from image; "" = the upstream image of
// the client's version) into the workspace's namespace and waits until it
// answers, for [kubernetes] builder = "buildkit".
func InstallBuildKit(ctx context.Context, ws *workspace.Workspace, image string, out io.Writer) error {
	cfg := Config(ws)
	cfg.Builder = kube.BuilderBuildKit
	cfg.BuildKitAddr = "" // the install is checked through the API server, as curate reaches it by default
	r, err := kube.Open(cfg, nil, ws.Root)
	if err != nil {
		return err
	}
	defer r.Close()
	if image == "" {
		image = kube.DefaultBuildKitImage
	}
	return r.InstallBuildKit(ctx, image, out)
}
