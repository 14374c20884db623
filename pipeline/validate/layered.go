package validate

import (
	"archive/tar"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/image"

	"curate/pipeline"
	"curate/pipeline/validate/parse"
)

// Labels of layered images.
const (
	LabelLayer     = "curate.layer"     // "repo" on a repository environment image
	LabelEnvImage  = "curate.env-image" // on a task image: the repo image it stands on
	RepoImageRepo  = "curate-repo"
	envDockerfile  = "curate-env.Dockerfile"
	taskDockerfile = "curate-task.Dockerfile"
)

// Layers is a task Dockerfile split at pipeline.TaskLayerMarker.
type Layers struct {
	Env, Task string
	// Network is true when the task layer needs a registry (its steps
	// download what the bug's manifests pin); else it builds with
	// NetworkMode "none".
	Network bool
	// TaskFiles are the context files the task layer copies; the rest
	// belongs to the environment image.
	TaskFiles map[string]bool
	// Key is the environment image's content hash: its instructions
	// (comments left out) and its context files.
	Key string
}

// ReadLayers reads envDir/Dockerfile and splits it; ok is false when the
// file has no task-layer marker (one image, built as a whole).
func ReadLayers(envDir string) (*Layers, bool, error) {
	data, err := os.ReadFile(filepath.Join(envDir, "Dockerfile"))
	if err != nil {
		return nil, false, err
	}
	text := string(data)
	i := strings.Index(text, "\n"+pipeline.TaskLayerMarker)
	if i < 0 {
		return nil, false, nil
	}
	l := &Layers{Env: text[:i+1], TaskFiles: map[string]bool{}}
	rest := text[i+1:]
	marker, task, _ := strings.Cut(rest, "\n")
	l.Task, l.Network = task, strings.Contains(marker, "network: install")
	for _, line := range strings.Split(task, "\n") {
		f := strings.Fields(line)
		if len(f) < 3 || (!strings.EqualFold(f[0], "COPY") && !strings.EqualFold(f[0], "ADD")) {
			continue
		}
		for _, src := range f[1 : len(f)-1] {
			if !strings.HasPrefix(src, "--") {
				l.TaskFiles[filepath.ToSlash(filepath.Clean(src))] = true
			}
		}
	}
	skip := map[string]bool{"Dockerfile": true}
	for f := range l.TaskFiles {
		skip[f] = true
	}
	files, err := digestTree(envDir, skip)
	if err != nil {
		return nil, false, fmt.Errorf("digest %s: %w", envDir, err)
	}
	var instr []string
	for _, line := range strings.Split(l.Env, "\n") {
		if t := strings.TrimSpace(line); t != "" && !strings.HasPrefix(t, "#") {
			instr = append(instr, line)
		}
	}
	h := sha256.Sum256([]byte(strings.Join(instr, "\n") + "\x00" + files))
	l.Key = hex.EncodeToString(h[:])
	return l, true, nil
}

// RepoImageTag is the tag of a repository environment image: its content
// key in a workspace (as ImageTag, so prune in one workspace never removes
// another's image; the engine's layer cache is shared all the same).
func RepoImageTag(workspace, key string) string {
	h := sha256.Sum256([]byte(workspace + "\x00repo\x00" + key))
	return RepoImageRepo + ":" + hex.EncodeToString(h[:])[:12]
}

// layeredImage builds a task image as the repository's environment image
// (built once per content, with the network) plus the task's own layer
// (built on it, without the network unless the layer asks for it).
func (d *DockerRunner) layeredImage(ctx context.Context, envDir, tag string, l *Layers, cfg *TaskConfig, out io.Writer) (string, bool, error) {
	envTag := RepoImageTag(d.workspace, l.Key)
	if err := d.repoImage(ctx, envDir, envTag, l, cfg, out); err != nil {
		return "", false, err
	}
	network := "none"
	if l.Network {
		network = "" // the network, through the egress proxy (buildNetwork)
	}
	start := time.Now()
	if out != nil {
		fmt.Fprintf(out, "curate: task layer on %s (network: %s)\n", envTag, map[bool]string{true: "install", false: "none"}[l.Network])
	}
	name, files := TaskContext(envDir, l, envTag, d.Labels("env", map[string]string{LabelEnvImage: envTag, LabelLayer: "task"}))
	err := d.build(ctx, pipeline.TimeTaskLayer, tag, nil, cfg, network, name, files, out)
	if err != nil {
		return "", false, err
	}
	if out != nil {
		fmt.Fprintf(out, "curate: task layer built in %s\n", time.Since(start).Round(10*time.Millisecond))
	}
	return tag, true, nil
}

// repoImage makes sure the environment image envTag exists, building it
// from the part of the Dockerfile above the marker when it does not.
func (d *DockerRunner) repoImage(ctx context.Context, envDir, envTag string, l *Layers, cfg *TaskConfig, out io.Writer) error {
	lock := d.buildLock(envTag)
	lock.Lock()
	defer lock.Unlock()
	if err := d.failedBefore(envTag, out); err != nil {
		return err
	}
	if _, err := d.cli.ImageInspect(ctx, envTag); err == nil {
		if out != nil {
			fmt.Fprintf(out, "curate: repository environment %s is built (shared)\n", envTag)
		}
		return nil
	} else if !cerrdefs.IsNotFound(err) {
		return infra("inspect image %s: %w", envTag, err)
	}
	if err := d.ensureBase(ctx, filepath.Join(envDir, "Dockerfile"), out); err != nil {
		return err
	}
	if out != nil {
		fmt.Fprintf(out, "curate: building repository environment %s\n", envTag)
	}
	name, files := RepoContext(envDir, l, d.Labels("env", map[string]string{LabelLayer: "repo"}))
	return d.build(ctx, pipeline.TimeRepoImage, envTag, nil, cfg, "", name, files, out)
}

// isParent reports whether dir is a folder holding one of files.
func isParent(dir string, files map[string]bool) bool {
	for f := range files {
		if strings.HasPrefix(f, dir+"/") {
			return true
		}
	}
	return false
}

func addFile(tw *tar.Writer, name string, data []byte) error {
	if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: 0o644, Size: int64(len(data))}); err != nil {
		return err
	}
	_, err := tw.Write(data)
	return err
}

// RepoImage makes sure the repository environment image of a task's
// environment/ folder exists (building it when not) and returns its tag;
// the environment check runs the whole suite in it.
func (d *DockerRunner) RepoImage(ctx context.Context, envDir string, out io.Writer) (string, error) {
	l, err := RepoLayers(envDir)
	if err != nil {
		return "", err
	}
	tag := RepoImageTag(d.workspace, l.Key)
	return tag, d.repoImage(ctx, envDir, tag, l, nil, out)
}

// RepoLayers are the layers of a task's environment/ folder that has a
// repository environment image (the task-layer marker); a build error
// when it has none.
func RepoLayers(envDir string) (*Layers, error) {
	l, ok, err := ReadLayers(envDir)
	if err != nil {
		return nil, &BuildError{Msg: err.Error()}
	}
	if !ok {
		return nil, &BuildError{Msg: envDir + "/Dockerfile has no task-layer marker: rebuild the task"}
	}
	return l, nil
}

// SuiteReport is the per-test report of a run that kept its test log:
// ctrf.json when test.sh wrote one, else the log parsed as format.
func SuiteReport(res *ExecResult, format string) *parse.Report {
	r, _ := testReport(res, format)
	return r
}

// PruneRepoImages removes this workspace's repository environment images
// whose tag is not in keep, with the task images built on them. Only
// images carrying the managed, workspace and layer labels are touched:
// never a base image, never another workspace's.
func (d *DockerRunner) PruneRepoImages(ctx context.Context, keep map[string]bool) ([]string, error) {
	mine := filters.NewArgs(filters.Arg("label", LabelManaged+"=true"), filters.Arg("label", LabelWorkspace+"="+d.workspace),
		filters.Arg("label", LabelLayer+"=repo"))
	images, err := d.cli.ImageList(ctx, image.ListOptions{Filters: mine})
	if err != nil {
		return nil, infra("list images: %w", err)
	}
	var removed []string
	var errs []error
	for _, im := range images {
		tag := ""
		for _, t := range im.RepoTags {
			if strings.HasPrefix(t, RepoImageRepo+":") {
				tag = t
			}
		}
		if tag == "" || keep[tag] {
			continue
		}
		children, err := d.cli.ImageList(ctx, image.ListOptions{Filters: filters.NewArgs(
			filters.Arg("label", LabelWorkspace+"="+d.workspace), filters.Arg("label", LabelEnvImage+"="+tag))})
		if err != nil {
			return removed, infra("list images: %w", err)
		}
		for _, c := range children {
			if _, err := d.cli.ImageRemove(ctx, c.ID, image.RemoveOptions{Force: true, PruneChildren: true}); err != nil && !cerrdefs.IsNotFound(err) {
				errs = append(errs, fmt.Errorf("remove task image %s: %w", short(strings.TrimPrefix(c.ID, "sha256:")), err))
			}
		}
		if _, err := d.cli.ImageRemove(ctx, im.ID, image.RemoveOptions{Force: true, PruneChildren: true}); err != nil && !cerrdefs.IsNotFound(err) {
			errs = append(errs, fmt.Errorf("remove image %s: %w", tag, err))
			continue
		}
		removed = append(removed, tag)
	}
	return removed, errors.Join(errs...)
}
