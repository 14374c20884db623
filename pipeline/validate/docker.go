package validate

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/build"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/client"
	"github.com/docker/docker/pkg/stdcopy"
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
	user   string                  // for images that run as root (SetUser)
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

// Close releases the client.
func (d *DockerRunner) Close() error { return d.cli.Close() }

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
	l := map[string]string{LabelManaged: "true", LabelWorkspace: d.workspace, LabelKind: kind}
	for k, v := range extra {
		l[k] = v
	}
	return l
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
	return d.dirImage(ctx, filepath.Join(taskDir, "environment"), out)
}

// dirImage returns the image of a build context folder with a Dockerfile
// (a task's environment/, a separate verifier's tests/), building it when
// no image carries the tag of the folder's digest.
func (d *DockerRunner) dirImage(ctx context.Context, envDir string, out io.Writer) (string, bool, error) {
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
		return d.layeredImage(ctx, envDir, tag, layers, out) // layered.go
	}
	if err := d.ensureBase(ctx, filepath.Join(envDir, "Dockerfile"), out); err != nil {
		return "", false, err
	}
	err = d.build(ctx, tag, d.Labels("env", nil), "", "Dockerfile", func(tw *tar.Writer) error { return writeTree(tw, envDir, "") }, out)
	if err != nil {
		return "", false, err
	}
	return tag, true, nil
}

// build runs one legacy-builder build of the context files writes into a
// tar, tagged tag; networkMode "" = the engine's default. A build error is
// remembered per tag, so one process builds a broken environment once.
func (d *DockerRunner) build(ctx context.Context, tag string, labels map[string]string, networkMode, dockerfile string, files func(*tar.Writer) error, out io.Writer) error {
	pr, pw := io.Pipe()
	go func() {
		tw := tar.NewWriter(pw)
		err := files(tw)
		if err == nil {
			err = tw.Close()
		}
		pw.CloseWithError(err)
	}()
	resp, err := d.cli.ImageBuild(ctx, pr, build.ImageBuildOptions{
		Tags:        []string{tag},
		Labels:      labels,
		Remove:      true,
		ForceRemove: true,
		Dockerfile:  dockerfile,
		NetworkMode: networkMode,
		Version:     build.BuilderV1,
	})
	if err != nil {
		pr.CloseWithError(err)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if strings.Contains(err.Error(), "leaves") || strings.Contains(err.Error(), "symlink") {
			return &BuildError{Msg: err.Error()}
		}
		return infra("build %s: %w", tag, err)
	}
	defer resp.Body.Close()
	tail := &tailBuffer{max: maxReplayLog}
	var w io.Writer = tail
	if out != nil {
		w = io.MultiWriter(out, tail)
	}
	if err := readBuildStream(resp.Body, w); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var be *BuildError
		if errors.As(err, &be) {
			d.rememberFailed(tag, err, tail.Bytes())
		}
		return err
	}
	return nil
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

// script is what the container runs: unpack the task files from stdin
// (when it runs as root), the oracle first when asked, then the verifier,
// teeing each to the files formats.md names, then the result trailer.
func script(oracle, fromStdin, keepTestLog bool, nonce string, cfg *TaskConfig) string {
	var b strings.Builder
	if fromStdin {
		b.WriteString("tar -x -f - -C / || { echo 'curate: could not unpack the task files' >&2; exit 97; }\n")
	}
	b.WriteString("mkdir -p /logs/verifier /logs/agent /logs/curate 2>/dev/null\n")
	b.WriteString(buildNotesScript)
	b.WriteString(healthcheckScript(cfg.Healthcheck))
	if len(cfg.Steps) > 0 {
		b.WriteString(stepsScript(oracle, cfg))
	} else {
		if oracle {
			b.WriteString("echo 'curate: oracle: bash /solution/solve.sh'\n")
			b.WriteString("bash /solution/solve.sh 2>&1 | tee /logs/agent/oracle.txt\n")
		}
		b.WriteString("echo 'curate: verifier: bash /tests/test.sh'\n")
		b.WriteString("{ bash /tests/test.sh; echo $? > /logs/curate/test-exit; } 2>&1 | tee /logs/verifier/test-stdout.txt\n")
	}
	files := []string{"/logs/verifier/reward.json", "/logs/verifier/reward.txt", "/logs/curate/test-exit", stepRewardsFile}
	if keepTestLog {
		// Every verifier file: runners often write their report beside
		// the output (go test -json > go-test.json, JUnit XML).
		files = append(files, "/logs/verifier/*")
	}
	b.WriteString(trailerScript(nonce, files))
	return b.String()
}

// runsAsRoot reports whether containers of image run as root, so the task
// files can be unpacked from stdin instead of through the engine's copy
// API (which mounts the container's file system: about 100 ms a run).
func (d *DockerRunner) runsAsRoot(ctx context.Context, img, user string) bool {
	if user == "" {
		d.mu.Lock()
		u, ok := d.users[img]
		d.mu.Unlock()
		if !ok {
			info, err := d.cli.ImageInspect(ctx, img)
			if err != nil || info.Config == nil {
				return false
			}
			u = info.Config.User
			d.mu.Lock()
			d.users[img] = u
			d.mu.Unlock()
		}
		user = u
	}
	return user == "" || user == "root" || user == "0" || strings.HasPrefix(user, "0:") || strings.HasPrefix(user, "root:")
}

// Exec implements Runner.
func (d *DockerRunner) Exec(ctx context.Context, spec ExecSpec, out Output) (*ExecResult, error) {
	cfg := spec.Config
	if cfg == nil {
		cfg = &TaskConfig{NetworkMode: "no-network", PidsLimit: DefaultPidsLimit}
	}
	if cfg.Verifier != nil && spec.phase == nil {
		return d.execSeparate(ctx, spec, out) // separate.go: two containers
	}
	var env []string
	for k, v := range cfg.Env {
		env = append(env, k+"="+v)
	}
	host := d.hostConfig(cfg) // contain.go: the containment model
	if spec.Oracle && cfg.AgentNetworkMode == "public" {
		host.NetworkMode = "bridge" // one container runs both phases: the more open one wins
	}
	var nonce [8]byte
	rand.Read(nonce[:])
	nonceHex := hex.EncodeToString(nonce[:])
	user := cfg.User
	if user == "" && d.user != "" && d.runsAsRoot(ctx, spec.Image, "") {
		user = d.user
		if _, ok := cfg.Env["HOME"]; !ok {
			env = append(env, "HOME=/tmp") // a uid without a passwd entry gets HOME=/, not writable
		}
	}
	viaStdin := d.runsAsRoot(ctx, spec.Image, user)
	cmd := script(spec.Oracle, viaStdin, spec.KeepTestLog, nonceHex, cfg)
	if spec.phase != nil {
		cmd = spec.phase.script(viaStdin, nonceHex)
	}
	created, err := d.cli.ContainerCreate(ctx, &container.Config{
		Image:        spec.Image,
		Cmd:          []string{"/bin/sh", "-c", cmd},
		Env:          env,
		WorkingDir:   cfg.Workdir, // "" = the image's
		User:         user,        // "" = the image's user
		Labels:       d.Labels("run", spec.Labels),
		AttachStdout: true,
		AttachStderr: true,
		AttachStdin:  viaStdin,
		OpenStdin:    viaStdin,
		StdinOnce:    viaStdin,
	}, host, nil, nil, "")
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, infra("create container from %s: %w", spec.Image, err)
	}
	res := &ExecResult{Container: created.ID, TestExit: -1}
	defer d.remove(created.ID)

	files, err := taskArchive(spec)
	if err != nil {
		return res, &BuildError{Phase: "task files", Msg: err.Error()}
	}
	if !viaStdin {
		if err := d.cli.CopyToContainer(ctx, created.ID, "/", bytes.NewReader(files), container.CopyToContainerOptions{}); err != nil {
			return res, ctxOr(ctx, infra("copy task files into %s: %w", short(created.ID), err))
		}
	}
	hj, err := d.cli.ContainerAttach(ctx, created.ID, container.AttachOptions{Stream: true, Stdin: viaStdin, Stdout: true, Stderr: true})
	if err != nil {
		return res, ctxOr(ctx, infra("attach %s: %w", short(created.ID), err))
	}
	defer hj.Close()
	stdout, stderr := out.Stdout, out.Stderr
	if stdout == nil {
		stdout = io.Discard
	}
	if stderr == nil {
		stderr = io.Discard
	}
	tap := newTrailerTap(stdout, nonceHex, MaxTestLog+4096)
	copied := make(chan error, 1)
	go func() {
		_, err := stdcopy.StdCopy(tap, stderr, hj.Reader)
		copied <- err
	}()
	waitCh, errCh := d.cli.ContainerWait(ctx, created.ID, container.WaitConditionNextExit)
	if err := d.cli.ContainerStart(ctx, created.ID, container.StartOptions{}); err != nil {
		return res, ctxOr(ctx, infra("start %s: %w", short(created.ID), err))
	}
	if viaStdin {
		_, err := hj.Conn.Write(files)
		hj.CloseWrite()
		if err != nil && ctx.Err() == nil {
			return res, infra("send task files to %s: %w", short(created.ID), err)
		}
	}
	select {
	case w := <-waitCh:
		res.ExitCode = int(w.StatusCode)
		if w.Error != nil {
			return res, infra("wait %s: %s", short(created.ID), w.Error.Message)
		}
		if d.oomKilled(ctx, created.ID) {
			res.OOMKilledMB = d.memoryLimitMB(cfg)
		}
	case err := <-errCh:
		return res, ctxOr(ctx, infra("wait %s: %w", short(created.ID), err))
	case <-ctx.Done():
		return res, ctx.Err()
	}
	select {
	case <-copied:
	case <-time.After(10 * time.Second): // output stream stuck after exit: carry on
	case <-ctx.Done():
		return res, ctx.Err()
	}
	tap.Flush()
	if res.ExitCode == 97 && viaStdin && !tap.found {
		return res, infra("the image cannot unpack the task files (no tar?)")
	}
	got, err := tap.files()
	if err != nil {
		// No trailer (the script was killed, e.g. out of memory): read
		// the files from the stopped container instead.
		return res, d.copyOut(ctx, created.ID, spec, res)
	}
	res.fromFiles(got, spec.KeepTestLog)
	return res, nil
}

// fromFiles fills the result from trailer files.
func (res *ExecResult) fromFiles(files map[string][]byte, keepTestLog bool) {
	if b, ok := files["/logs/verifier/reward.json"]; ok {
		res.RewardJSON, res.HasJSON = b, true
	}
	if b, ok := files["/logs/verifier/reward.txt"]; ok {
		res.RewardText, res.HasText = b, true
	}
	if b, ok := files["/logs/curate/test-exit"]; ok {
		if n, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
			res.TestExit = n
		}
	}
	res.Artifacts = files[artifactsTar]
	if keepTestLog {
		res.CTRF = files[ctrfFile]
		res.TestLog = joinTestLogs(files)
		res.TestLogTruncated = len(res.TestLog) >= MaxTestLog
		res.HasTestLog = true
	}
}

// joinTestLogs puts test.sh's output first, then the other verifier files
// (reports) in name order, for the per-test parsers.
func joinTestLogs(files map[string][]byte) []byte {
	var names []string
	for name := range files {
		base := path.Base(name)
		if strings.HasPrefix(name, "/logs/verifier/") && base != "test-stdout.txt" && !strings.HasPrefix(base, "reward.") && name != ctrfFile {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	out := append([]byte(nil), files["/logs/verifier/test-stdout.txt"]...)
	for _, n := range names {
		if len(out) >= MaxTestLog {
			break
		}
		out = append(out, '\n')
		out = append(out, files[n]...)
	}
	if len(out) > MaxTestLog {
		out = out[:MaxTestLog]
	}
	return out
}

func ctxOr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

func short(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

// remove kills and removes a container even when the run's context ended.
func (d *DockerRunner) remove(id string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_ = d.cli.ContainerRemove(ctx, id, container.RemoveOptions{Force: true, RemoveVolumes: true})
}

// taskArchive packs /tests, /solution (oracle only) and writable /logs
// folders in one tar archive.
func taskArchive(spec ExecSpec) ([]byte, error) {
	if spec.phase != nil {
		return spec.phase.archive()
	}
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, dir := range []string{"logs", "logs/verifier", "logs/agent", "logs/curate"} {
		if err := addDir(tw, dir, 0o777); err != nil {
			return nil, err
		}
	}
	if err := addDir(tw, "tests", 0o755); err != nil {
		return nil, err
	}
	if err := writeTree(tw, filepath.Join(spec.TaskDir, "tests"), "tests/"); err != nil {
		return nil, fmt.Errorf("copy tests: %w", err)
	}
	if spec.Oracle && !stepsOnly(spec) {
		if err := addDir(tw, "solution", 0o755); err != nil {
			return nil, err
		}
		if err := writeTree(tw, filepath.Join(spec.TaskDir, "solution"), "solution/"); err != nil {
			return nil, fmt.Errorf("copy solution: %w", err)
		}
	}
	if spec.Config != nil && len(spec.Config.Steps) > 0 {
		if err := addStepFiles(tw, spec); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// copyOut reads the reward files, test.sh's exit code and (for gold) its
// output from /logs.
func (d *DockerRunner) copyOut(ctx context.Context, id string, spec ExecSpec, res *ExecResult) error {
	rc, _, err := d.cli.CopyFromContainer(ctx, id, "/logs")
	if err != nil {
		return ctxOr(ctx, infra("read /logs from %s: %w", short(id), err))
	}
	defer rc.Close()
	tr := tar.NewReader(rc)
	logs := map[string][]byte{}
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			if spec.KeepTestLog {
				res.CTRF = logs[ctrfFile]
				res.TestLog = joinTestLogs(logs)
				res.TestLogTruncated = len(res.TestLog) >= MaxTestLog
				res.HasTestLog = true
			}
			return nil
		}
		if err != nil {
			return ctxOr(ctx, infra("read /logs archive: %w", err))
		}
		if hdr.Typeflag != tar.TypeReg {
			continue
		}
		switch hdr.Name {
		case "logs/verifier/reward.json":
			res.RewardJSON, _ = io.ReadAll(io.LimitReader(tr, 1<<20))
			res.HasJSON = true
		case "logs/verifier/reward.txt":
			res.RewardText, _ = io.ReadAll(io.LimitReader(tr, 1<<20))
			res.HasText = true
		case "logs/curate/test-exit":
			b, _ := io.ReadAll(io.LimitReader(tr, 64))
			if n, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
				res.TestExit = n
			}
		default:
			if spec.KeepTestLog && strings.HasPrefix(hdr.Name, "logs/verifier/") && len(logs) < 64 {
				logs["/"+hdr.Name], _ = io.ReadAll(io.LimitReader(tr, MaxTestLog))
			}
		}
	}
}

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

// ReadBuildOutput copies an engine build or import stream to out and returns its error, if any.
func ReadBuildOutput(r io.Reader, out io.Writer) error { return readBuildStream(r, out) }

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
