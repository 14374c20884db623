package app

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"curate/pipeline/validate"
	"curate/workspace"
)

// BootstrapOptions make a base image without a registry.
type BootstrapOptions struct {
	Host     string   // engine to import into; "" = the environment's
	Name     string   // image name
	Packages []string // Debian packages; nil = validate.DefaultBasePackages
	Mirror   string   // Debian mirror; "" = the system's
	Force    bool     // rebuild even when the image exists
	Log      io.Writer
}

// Bootstrap builds a base image (debootstrap) into one engine. In a
// workspace (ws not nil) the image is labelled as the workspace's and the
// root file system is made under its cache; without one (ws nil) the image
// belongs to no workspace (no `env prune` removes it) and the work folder
// is BootstrapCacheDir's.
func Bootstrap(ctx context.Context, ws *workspace.Workspace, o BootstrapOptions) error {
	var r *validate.DockerRunner
	if ws != nil {
		runners, err := OpenRunners(ctx, ws, []string{o.Host}, o.Log)
		if err != nil {
			return err
		}
		r = runners[0]
	} else {
		var err error
		if r, err = openEngine(ctx, o.Host); err != nil {
			return err
		}
	}
	defer r.Close()
	pkgs := o.Packages
	if pkgs == nil {
		pkgs = validate.DefaultBasePackages
	}
	labels := r.Labels("base", nil)
	if ws == nil {
		delete(labels, validate.LabelWorkspace)
	}
	_, err := validate.Bootstrap(ctx, r.Client(), validate.BootstrapOptions{
		Name: o.Name, Packages: pkgs, Mirror: o.Mirror, Force: o.Force, Log: o.Log,
		WorkDir: BootstrapCacheDir(ws),
		Labels:  labels,
	})
	return err
}

// BootstrapCacheDir is where env bootstrap makes its root file system: the
// workspace's cache, else the user's cache folder (curate/bootstrap in
// os.UserCacheDir), else the temporary folder.
func BootstrapCacheDir(ws *workspace.Workspace) string {
	if ws != nil {
		return filepath.Join(ws.CachePath(), "bootstrap")
	}
	if dir, err := os.UserCacheDir(); err == nil {
		return filepath.Join(dir, "curate", "bootstrap")
	}
	return filepath.Join(os.TempDir(), "curate-bootstrap")
}

// openEngine connects to one engine outside any workspace and checks that
// it answers.
func openEngine(ctx context.Context, host string) (*validate.DockerRunner, error) {
	r, err := validate.NewDockerRunner(host, "")
	if err != nil {
		return nil, err
	}
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := r.Ping(pctx); err != nil {
		r.Close()
		return nil, fmt.Errorf("no Docker engine answers (%w); start one or pass --docker-host", err)
	}
	return r, nil
}

// Prune removes the containers and environment images curate made for this
// workspace on every engine (base images too when base is set), and nothing
// else. It reports what went; the first engine error comes back with it.
func Prune(ctx context.Context, ws *workspace.Workspace, hosts []string, base bool, warn io.Writer) (*validate.PruneReport, error) {
	runners, err := OpenRunners(ctx, ws, DockerHosts(ws, hosts), warn)
	if err != nil {
		return nil, err
	}
	total := &validate.PruneReport{Containers: []string{}, Images: []string{}}
	var firstErr error
	for _, r := range runners {
		rep, err := r.Prune(ctx, base)
		r.Close()
		total.Containers = append(total.Containers, rep.Containers...)
		total.Images = append(total.Images, rep.Images...)
		if err != nil && firstErr == nil {
			firstErr = err
		}
	}
	return total, firstErr
}

// PruneUnused removes the repository environment images no built task of
// this workspace stands on (with the task images built on them), on every
// engine; images of the tasks still built are kept.
func PruneUnused(ctx context.Context, ws *workspace.Workspace, hosts []string, warn io.Writer) ([]string, error) {
	keep, err := RepoImagesInUse(ctx, ws)
	if err != nil {
		return nil, err
	}
	runners, err := OpenRunners(ctx, ws, DockerHosts(ws, hosts), warn)
	if err != nil {
		return nil, err
	}
	var removed []string
	var firstErr error
	for _, r := range runners {
		got, err := r.PruneRepoImages(ctx, keep)
		r.Close()
		removed = append(removed, got...)
		if err != nil && firstErr == nil {
			firstErr = err
		}
	}
	return removed, firstErr
}

// RepoImagesInUse are the tags of the repository environment images the
// built tasks of ws stand on (from their Dockerfiles, by content).
func RepoImagesInUse(ctx context.Context, ws *workspace.Workspace) (map[string]bool, error) {
	tasks, err := ws.Store.Tasks(ctx)
	if err != nil {
		return nil, err
	}
	keep := map[string]bool{}
	for _, t := range tasks {
		if t.TaskDir == "" {
			continue
		}
		l, ok, err := validate.ReadLayers(filepath.Join(t.TaskDir, "environment"))
		if err != nil || !ok {
			continue // gone or not layered: nothing of ours to keep
		}
		keep[validate.RepoImageTag(ws.Root, l.Key)] = true
	}
	return keep, nil
}
