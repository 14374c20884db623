package kube

import (
	"context"
	"io"

	"curate/pipeline/validate"
)

// RepoImage is the repository environment image of a task's environment/
// folder, by digest in the registry: the image the environment check runs
// the whole suite in. The local engine builds it and it is pushed, as a
// task image is; with builder = "buildkit" buildkitd builds it when the
// registry lacks it (bkimage.go), so no Docker engine is used.
func (r *Runner) RepoImage(ctx context.Context, envDir string, out io.Writer) (string, error) {
	if r.cfg.Builder == BuilderBuildKit {
		layers, err := validate.RepoLayers(envDir)
		if err != nil {
			return "", err
		}
		return r.repoImage(ctx, envDir, validate.RepoImageTag(r.wsPath, layers.Key), layers, out)
	}
	local, err := r.docker.RepoImage(ctx, envDir, out)
	if err != nil {
		return "", err
	}
	ref, _, err := r.Push(ctx, local, out)
	return ref, err
}
