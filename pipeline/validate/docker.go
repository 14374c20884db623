package validate

import (
	"archive/tar"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/build"
	"github.com/docker/docker/client"

	"curate/pipeline"
)

// Labels on everything curate creates, so `curate env prune` finds its own
// containers and images and nothing else.
const (
	LabelManaged   = "curate.managed"
	LabelWorkspace = "curate.workspace"
	LabelRun       = "curate.run"
	LabelTask      = "curate.task"
	LabelKind      = "curate.kind" // env, base, test
	EnvImageRepo   = "curate-env"
)

// DockerRunner is a Runner on one Docker engine, through the official SDK.
type DockerRunner struct {
	cli       *client.Client
	host      string
	workspace string

	// Progress gets one line when the default base image is made on first
	// use (it takes a minute or two); nil = only the build log gets it.
	Progress io.Writer

	mu     sync.Mutex
	baseMu sync.Mutex              // one bootstrap at a time
	builds map[string]*sync.Mutex  // one build per image tag at a time
	users  map[string]string       // image -> its configured user
	failed map[string]*failedBuild // tag -> build error and output, so one process builds a broken env once
	limits Limits                  // when task.toml sets none (SetLimits)
	caps   Caps                    // the workspace's ceilings (SetCaps)

	defaultCaps Caps // from the engine's memory and CPUs (Probe)
	// engineCPUs and engineMemMB are the engine's size (Probe), for the
	// runs it holds at once (Capacity).
	engineCPUs  int
	engineMemMB int64
	disk        diskState
	user        string // for images that run as root (SetUser)
	// noIPv6: the engine's kernel has no IPv6, so containers start without
	// the loopback sysctl (ipv6Loopback).
	noIPv6 atomic.Bool
	cgroup engineCgroup // for the pids cap of builds (buildbox.go)
	egress egressBox    // the build network's proxy (egressnet.go)
	// taskNetwork is [docker] task_network (tasknet.go).
	taskNetwork string
}

// NewDockerRunner connects to host ("" = DOCKER_HOST or the default
// socket; DOCKER_TLS_VERIFY and DOCKER_CERT_PATH are honoured) and labels
// what it makes with the workspace root.
func NewDockerRunner(host, workspace string) (*DockerRunner, error) {
	cli, err := NewClient(host)
	if err != nil {
		return nil, err
	}
	name := host
	if name == "" {
		name = cli.DaemonHost()
	}
	return &DockerRunner{cli: cli, host: name, workspace: workspace, builds: map[string]*sync.Mutex{}, users: map[string]string{}, failed: map[string]*failedBuild{}}, nil
}

// NewClient opens an SDK client for host ("" = from the environment).
func NewClient(host string) (*client.Client, error) {
	opts := []client.Opt{client.FromEnv, client.WithAPIVersionNegotiation()}
	if host != "" {
		opts = append(opts, client.WithHost(host))
	}
	cli, err := client.NewClientWithOpts(opts...)
	if err != nil {
		return nil, infra("docker client for %q: %w", host, err)
	}
	return cli, nil
}

// Client exposes the SDK client (for prune and bootstrap).
func (d *DockerRunner) Client() *client.Client { return d.cli }

// Workspace is the workspace label value on everything this runner makes.
func (d *DockerRunner) Workspace() string { return d.workspace }

// Host implements Runner.
func (d *DockerRunner) Host() string { return d.host }

// Close stops the egress proxy and releases the client.
func (d *DockerRunner) Close() error {
	d.closeEgress()
	return d.cli.Close()
}

// Ping checks that the engine answers.
func (d *DockerRunner) Ping(ctx context.Context) error {
	if _, err := d.cli.Ping(ctx); err != nil {
		return infra("docker engine %s: %w", d.host, err)
	}
	return nil
}

// Answers checks that the engine answers a new connection (the queue asks
// after a failed run). Ping alone is not enough: a daemon shutting down
// keeps serving the connections it has, so a ping on a kept-alive one
// succeeds while every new request is refused.
func (d *DockerRunner) Answers(ctx context.Context) error {
	fresh, err := NewClient(d.host)
	if err != nil {
		return err
	}
	defer fresh.Close()
	_, err = fresh.Ping(ctx)
	return err
}

// Labels returns the labels every object of this workspace carries.
func (d *DockerRunner) Labels(kind string, extra map[string]string) map[string]string {
	return EnvLabels(d.workspace, kind, extra)
}

// ImageTag is the tag of the environment image of a digest in a workspace.
// The workspace is part of it so `curate env prune` in one workspace never
// removes an image another relies on; a second workspace's build of the
// same environment still reuses every layer from the engine's cache.
func ImageTag(workspace, envDigest string) string {
	h := sha256.Sum256([]byte(workspace + "\x00" + envDigest))
	return EnvImageRepo + ":" + hex.EncodeToString(h[:])[:12]
}

// Image implements Runner.
func (d *DockerRunner) Image(ctx context.Context, taskDir string, out io.Writer) (string, bool, error) {
	cfg, err := ReadTaskConfig(taskDir)
	if err != nil {
		cfg = nil // the build gets the workspace's values; the run reports the error
	}
	return d.dirImage(ctx, filepath.Join(taskDir, "environment"), cfg, out)
}

// dirImage returns the image of a build context folder with a Dockerfile
// (a task's environment/, a separate verifier's tests/), building it when
// no image carries the tag of the folder's digest.
func (d *DockerRunner) dirImage(ctx context.Context, envDir string, cfg *TaskConfig, out io.Writer) (string, bool, error) {
	digest, err := DirDigest(envDir)
	if err != nil {
		return "", false, &BuildError{Msg: err.Error()}
	}
	tag := ImageTag(d.workspace, digest)
	lock := d.buildLock(tag)
	lock.Lock()
	defer lock.Unlock()
	if err := d.failedBefore(tag, out); err != nil {
		return "", false, err
	}
	if _, err := d.cli.ImageInspect(ctx, tag); err == nil {
		return tag, false, nil
	} else if !cerrdefs.IsNotFound(err) {
		return "", false, infra("inspect image %s: %w", tag, err)
	}
	if _, err := os.Stat(filepath.Join(envDir, "Dockerfile")); err != nil {
		return "", false, &BuildError{Msg: fmt.Sprintf("%s/Dockerfile: missing (docker-compose environments are not supported yet)", envDir)}
	}
	if layers, ok, err := ReadLayers(envDir); err != nil {
		return "", false, &BuildError{Msg: err.Error()}
	} else if ok {
		return d.layeredImage(ctx, envDir, tag, layers, cfg, out) // layered.go
	}
	if err := d.ensureBase(ctx, filepath.Join(envDir, "Dockerfile"), out); err != nil {
		return "", false, err
	}
	err = d.build(ctx, pipeline.TimeTaskLayer, tag, d.Labels("env", nil), cfg, "", "Dockerfile", func(tw *tar.Writer) error { return writeTree(tw, envDir, "") }, out)
	if err != nil {
		return "", false, err
	}
	return tag, true, nil
}

// build runs one legacy-builder build (of phase, for the meter) of the
// context files writes into a tar, tagged tag, in the box of cfg's task (nil = the workspace's caps;
// buildbox.go); networkMode "" = the network, through the egress proxy
// (buildNetwork), "none" = none. A build error is
// remembered per tag, so one process builds a broken environment once.
// A build that failed because a cached layer it used was removed meanwhile
// (another curate pruning or building on the same engine) runs once more.
func (d *DockerRunner) build(ctx context.Context, phase, tag string, labels map[string]string, cfg *TaskConfig, networkMode, dockerfile string, files func(*tar.Writer) error, out io.Writer) error {
	start := time.Now()
	box := d.buildBoxFor(ctx, cfg, out)
	defer box.cleanup()
	// The build's machine time goes to ctx's meter (phase: a repository
	// image or a task's layer); its CPU is its containers' (every RUN
	// step), read from the box's cgroup before cleanup removes it.
	defer func() {
		var cpu time.Duration
		err := errors.New("no cgroup of the build's own")
		if box.parent != "" {
			cpu, err = d.parentCPU(strings.TrimPrefix(box.parent, "/"))
		}
		RecordTime(ctx, phase, time.Since(start), cpu, err == nil)
	}()
	defer d.buildNetwork(ctx, &box, networkMode, out)()
	tail, err := d.buildOnce(ctx, tag, labels, box, dockerfile, files, out)
	if err != nil && ctx.Err() == nil && vanishedLayerRe.MatchString(err.Error()) {
		if out != nil {
			fmt.Fprintln(out, "curate: a layer this build used was removed meanwhile (a prune or another build on the same engine); building again")
		}
		tail, err = d.buildOnce(ctx, tag, labels, box, dockerfile, files, out)
	}
	var be *BuildError
	if errors.As(err, &be) && ctx.Err() == nil {
		d.rememberFailed(tag, err, tail)
	}
	return err
}

// vanishedLayerRe is the legacy builder's error for a cached image that
// was deleted between two steps.
var vanishedLayerRe = regexp.MustCompile(`failed to get digest sha256:[0-9a-f]+|No such image: sha256:[0-9a-f]+|/image/[a-z0-9]+/imagedb/content/sha256/[0-9a-f]+: no such file`)

// buildOnce is one build; it returns the tail of the build output.
func (d *DockerRunner) buildOnce(ctx context.Context, tag string, labels map[string]string, box buildBox, dockerfile string, files func(*tar.Writer) error, out io.Writer) ([]byte, error) {
	pr := TarStream(files)
	opts := build.ImageBuildOptions{
		Tags:        []string{tag},
		Labels:      labels,
		Remove:      true,
		ForceRemove: true,
		Dockerfile:  dockerfile,
		Version:     build.BuilderV1,
	}
	box.options(&opts)
	resp, err := d.cli.ImageBuild(ctx, pr, opts)
	if err != nil {
		pr.CloseWithError(err)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if strings.Contains(err.Error(), "leaves") || strings.Contains(err.Error(), "symlink") {
			return nil, &BuildError{Msg: err.Error()}
		}
		return nil, infra("build %s: %w", tag, err)
	}
	defer resp.Body.Close()
	tail := &tailBuffer{max: maxReplayLog}
	var w io.Writer = tail
	if out != nil {
		w = io.MultiWriter(out, tail)
	}
	if err := readBuildStream(resp.Body, w); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return tail.Bytes(), err
	}
	return nil, nil
}

func (d *DockerRunner) buildLock(tag string) *sync.Mutex {
	d.mu.Lock()
	defer d.mu.Unlock()
	l, ok := d.builds[tag]
	if !ok {
		l = &sync.Mutex{}
		d.builds[tag] = l
	}
	return l
}

// readBuildStream copies the legacy builder's JSON messages to out and
// turns an error message into a BuildError naming the last step.
func readBuildStream(r io.Reader, out io.Writer) error {
	dec := json.NewDecoder(r)
	step := ""
	for {
		var msg struct {
			Stream      string `json:"stream"`
			Error       string `json:"error"`
			ErrorDetail struct {
				Message string `json:"message"`
			} `json:"errorDetail"`
		}
		if err := dec.Decode(&msg); err == io.EOF {
			return nil
		} else if err != nil {
			return infra("read build output: %w", err)
		}
		if msg.Stream != "" {
			if out != nil {
				io.WriteString(out, msg.Stream)
			}
			for _, l := range strings.Split(msg.Stream, "\n") {
				if strings.HasPrefix(l, "Step ") {
					step = strings.TrimSpace(l)
				}
			}
		}
		if msg.Error != "" {
			text := msg.ErrorDetail.Message
			if text == "" {
				text = msg.Error
			}
			if out != nil {
				fmt.Fprintln(out, text)
			}
			if strings.Contains(text, "no space left on device") {
				return infra("build: %s (free disk space, e.g. curate env prune)", strings.TrimSpace(text))
			}
			return &BuildError{Step: step, Msg: strings.TrimSpace(text)}
		}
	}
}

// ReadBuildOutput copies an engine build or import stream to out and returns its error, if any.
func ReadBuildOutput(r io.Reader, out io.Writer) error { return readBuildStream(r, out) }
