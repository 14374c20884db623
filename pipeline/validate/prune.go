package validate

import (
	"context"
	"errors"
	"fmt"
	"strings"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/image"
)

// RemoveRunContainers force-removes the containers of the given run ids
// (all of this workspace's run containers when ids is empty).
func (d *DockerRunner) RemoveRunContainers(ctx context.Context, ids ...string) (int, error) {
	want := map[string]bool{}
	for _, id := range ids {
		want[id] = true
	}
	return d.RemoveOrphanContainers(ctx, func(runID string) bool { return len(ids) > 0 && !want[runID] })
}

// RemoveOrphanContainers force-removes this workspace's run containers
// whose run no live process owns (keep reports the runs that one does):
// those of a curate that was killed, including a container the engine
// finished creating after its process died.
func (d *DockerRunner) RemoveOrphanContainers(ctx context.Context, keep func(runID string) bool) (int, error) {
	f := filters.NewArgs(filters.Arg("label", LabelManaged+"=true"), filters.Arg("label", LabelWorkspace+"="+d.workspace),
		filters.Arg("label", LabelRun))
	list, err := d.cli.ContainerList(ctx, container.ListOptions{All: true, Filters: f})
	if err != nil {
		return 0, infra("list containers: %w", err)
	}
	n := 0
	var errs []error
	for _, c := range list {
		if keep(c.Labels[LabelRun]) {
			continue
		}
		if err := d.cli.ContainerRemove(ctx, c.ID, container.RemoveOptions{Force: true, RemoveVolumes: true}); err != nil && !cerrdefs.IsNotFound(err) {
			errs = append(errs, err)
			continue
		}
		n++
	}
	return n, errors.Join(errs...)
}

// PruneReport says what Prune removed.
type PruneReport struct {
	Containers []string `json:"containers"`
	Images     []string `json:"images"`
}

// Prune removes this workspace's containers and environment images, and
// its bootstrap base images when base is true. Objects without both the
// managed and the workspace label are never touched.
func (d *DockerRunner) Prune(ctx context.Context, base bool) (*PruneReport, error) {
	rep := &PruneReport{Containers: []string{}, Images: []string{}}
	mine := filters.NewArgs(filters.Arg("label", LabelManaged+"=true"), filters.Arg("label", LabelWorkspace+"="+d.workspace))
	list, err := d.cli.ContainerList(ctx, container.ListOptions{All: true, Filters: mine})
	if err != nil {
		return rep, infra("list containers: %w", err)
	}
	var errs []error
	for _, c := range list {
		if err := d.cli.ContainerRemove(ctx, c.ID, container.RemoveOptions{Force: true, RemoveVolumes: true}); err != nil && !cerrdefs.IsNotFound(err) {
			errs = append(errs, err)
			continue
		}
		rep.Containers = append(rep.Containers, short(c.ID))
	}
	images, err := d.cli.ImageList(ctx, image.ListOptions{All: false, Filters: mine})
	if err != nil {
		return rep, infra("list images: %w", err)
	}
	for _, im := range images {
		kind := im.Labels[LabelKind]
		if kind != "env" && !(base && kind == "base") {
			continue
		}
		name := short(strings.TrimPrefix(im.ID, "sha256:"))
		if len(im.RepoTags) > 0 {
			name = im.RepoTags[0]
		}
		if _, err := d.cli.ImageRemove(ctx, im.ID, image.RemoveOptions{Force: true, PruneChildren: true}); err != nil && !cerrdefs.IsNotFound(err) {
			errs = append(errs, fmt.Errorf("remove image %s: %w", name, err))
			continue
		}
		rep.Images = append(rep.Images, name)
	}
	return rep, errors.Join(errs...)
}
