package kube

import (
	"archive/tar"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"curate/pipeline"
	"curate/pipeline/validate"
)

// With [kubernetes] builder = "buildkit" every image of a task is built
// by buildkitd in the cluster and pushed to the registry under the same
// content-addressed tag as a local build, so an environment the registry
// holds is never built again, whichever machine asks.

// buildKitImage returns the reference by digest of a task's image,
// building what the registry lacks.
func (r *Runner) buildKitImage(ctx context.Context, taskDir string, out io.Writer) (string, bool, error) {
	envDir := filepath.Join(taskDir, "environment")
	digest, err := validate.DirDigest(envDir)
	if err != nil {
		return "", false, &validate.BuildError{Msg: err.Error()}
	}
	tag := validate.ImageTag(r.wsPath, digest)
	unlock := r.lockImage(tag)
	defer unlock()
	if ref, ok, err := r.registryRef(ctx, tag); err != nil || ok {
		return ref, false, err
	}
	if _, err := os.Stat(filepath.Join(envDir, "Dockerfile")); err != nil {
		return "", false, &validate.BuildError{Msg: fmt.Sprintf("%s/Dockerfile: missing (docker-compose environments are not supported yet)", envDir)}
	}
	layers, ok, err := validate.ReadLayers(envDir)
	if err != nil {
		return "", false, &validate.BuildError{Msg: err.Error()}
	}
	if !ok {
		named, err := r.baseContext(ctx, filepath.Join(envDir, "Dockerfile"), out)
		if err != nil {
			return "", false, err
		}
		ref, err := r.buildContext(ctx, pipeline.TimeTaskLayer, tag, "Dockerfile", validate.WholeContext(envDir), named, true, out)
		return ref, err == nil, err
	}
	envTag := validate.RepoImageTag(r.wsPath, layers.Key)
	envRef, err := r.repoImage(ctx, envDir, envTag, layers, out)
	if err != nil {
		return "", false, err
	}
	fmt.Fprintf(orDiscard(out), "curate: task layer on %s (network: %s)\n", envTag, map[bool]string{true: "install", false: "none"}[layers.Network])
	name, files := validate.TaskContext(envDir, layers, envTag,
		validate.EnvLabels(r.wsPath, "env", map[string]string{validate.LabelEnvImage: envTag, validate.LabelLayer: "task"}))
	ref, err := r.buildContext(ctx, pipeline.TimeTaskLayer, tag, name, files, map[string]string{envTag: envRef}, layers.Network, out)
	return ref, err == nil, err
}

// repoImage is the repository environment image envTag by digest,
// built when the registry lacks it.
func (r *Runner) repoImage(ctx context.Context, envDir, envTag string, l *validate.Layers, out io.Writer) (string, error) {
	unlock := r.lockImage(envTag)
	defer unlock()
	if ref, ok, err := r.registryRef(ctx, envTag); err != nil {
		return "", err
	} else if ok {
		fmt.Fprintf(orDiscard(out), "curate: repository environment %s is in the registry (shared)\n", envTag)
		return ref, nil
	}
	named, err := r.baseContext(ctx, filepath.Join(envDir, "Dockerfile"), out)
	if err != nil {
		return "", err
	}
	fmt.Fprintf(orDiscard(out), "curate: building repository environment %s with buildkit\n", envTag)
	name, files := validate.RepoContext(envDir, l, validate.EnvLabels(r.wsPath, "env", map[string]string{validate.LabelLayer: "repo"}))
	return r.buildContext(ctx, pipeline.TimeRepoImage, envTag, name, files, named, true, out)
}

// baseContext maps a Dockerfile's base image to the registry: a name
// without a registry host (such as curate/base:bookworm, made by `curate
// env bootstrap`) is looked up there, and the default base image is made
// when it is missing (basebuild.go). Names with a host are left to
// buildkitd.
func (r *Runner) baseContext(ctx context.Context, dockerfile string, out io.Writer) (map[string]string, error) {
	base := validate.BaseImageOf(dockerfile)
	if base == "" || base == "scratch" || hasRegistryHost(base) || strings.Contains(base, "$") {
		return nil, nil
	}
	unlock := r.lockImage(base)
	defer unlock()
	ref, ok, err := r.registryRef(ctx, base)
	if err != nil {
		return nil, err
	}
	if !ok {
		if base != validate.DefaultBaseImage {
			return nil, &validate.BuildError{Msg: fmt.Sprintf("base image %s is not in the registry %s (builder = \"buildkit\" builds FROM the registry: push it there)", base, r.cfg.Registry)}
		}
		if ref, err = r.buildBase(ctx, out); err != nil {
			return nil, err
		}
	}
	return map[string]string{base: "docker-image://" + ref}, nil
}

// hasRegistryHost says whether an image name starts with a registry host
// (a first part with a dot or a port, or localhost).
func hasRegistryHost(name string) bool {
	first, _, ok := strings.Cut(name, "/")
	return ok && (strings.ContainsAny(first, ".:") || first == "localhost")
}

// registryRef resolves local name (repo:tag) in the registry.
func (r *Runner) registryRef(ctx context.Context, local string) (string, bool, error) {
	ref, ok, err := resolveRemote(ctx, r.remoteName(local))
	if err != nil {
		return "", false, validate.Infra(err)
	}
	return ref, ok, nil
}

// buildContext writes a build context to a folder and has buildkitd build
// it as local (pushed as its remote name); its time goes to ctx's meter
// under phase (wall time only: the CPU is the cluster's).
func (r *Runner) buildContext(ctx context.Context, phase, local, dockerfile string, files func(*tar.Writer) error, named map[string]string, network bool, out io.Writer) (string, error) {
	start := time.Now()
	defer func() { validate.RecordTime(ctx, phase, time.Since(start), 0, false) }()
	dir, err := os.MkdirTemp("", "curate-buildkit-")
	if err != nil {
		return "", validate.Infra(err)
	}
	defer os.RemoveAll(dir)
	if err := writeContext(dir, files); err != nil {
		return "", validate.Infra(fmt.Errorf("build context of %s: %w", local, err))
	}
	named2 := map[string]string{}
	for k, v := range named {
		if !strings.Contains(v, "://") {
			v = "docker-image://" + v
		}
		named2[k] = v
	}
	repo := local[:strings.LastIndex(local, ":")]
	ref, err := r.solve(ctx, bkBuild{remote: r.remoteName(local), contextDir: dir, dockerfile: dockerfile,
		cacheRef: r.remoteName("curate-buildcache:" + strings.ReplaceAll(repo, "/", "-")), named: named2, network: network}, out)
	if err != nil {
		return "", err
	}
	fmt.Fprintf(orDiscard(out), "curate: buildkit built and pushed %s in %s\n", ref, time.Since(start).Round(10*time.Millisecond))
	return ref, nil
}

// writeContext unpacks what files writes into dir.
func writeContext(dir string, files func(*tar.Writer) error) error {
	pr := validate.TarStream(files)
	defer pr.Close()
	tr := tar.NewReader(pr)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		} else if err != nil {
			return err
		}
		name := filepath.Clean(h.Name)
		if name == ".." || strings.HasPrefix(name, "../") || filepath.IsAbs(name) {
			return fmt.Errorf("%s: outside the build context", h.Name)
		}
		full := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		switch h.Typeflag {
		case tar.TypeDir:
			err = os.MkdirAll(full, os.FileMode(h.Mode)&0o777|0o700)
		case tar.TypeSymlink:
			err = os.Symlink(h.Linkname, full)
		case tar.TypeReg:
			var f *os.File
			if f, err = os.OpenFile(full, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, os.FileMode(h.Mode)&0o777); err == nil {
				_, err = io.Copy(f, tr)
				if cerr := f.Close(); err == nil {
					err = cerr
				}
			}
		}
		if err != nil {
			return err
		}
	}
}

// lockImage serializes the builds of one image in this process.
func (r *Runner) lockImage(name string) func() {
	r.mu.Lock()
	l := r.locks["build "+name]
	if l == nil {
		l = &sync.Mutex{}
		r.locks["build "+name] = l
	}
	r.mu.Unlock()
	l.Lock()
	return l.Unlock
}

func orDiscard(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return w
}
