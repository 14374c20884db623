package validate

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"strings"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/image"
)

// phaseSpec makes Exec run one phase of a task with a separate verifier
// environment: its own script and its own task files.
type phaseSpec struct {
	script  func(fromStdin bool) string
	archive func(w io.Writer) error
}

// artifactsTar is where the agent phase packs what it carries over.
const artifactsTar = "/logs/curate/artifacts.tar"

// execSeparate runs a task whose verifier has an environment of its own
// (VerifierEnv), as Harbor does: the oracle (or, for NOP, nothing) in a
// container of the task's image; /logs/artifacts and the artifacts paths
// packed there; then a fresh container of the verifier image with those
// restored at the same paths, /logs/verifier empty, test.sh run, and the
// reward, test.sh's exit code and (gold) its output read from it.
func (d *DockerRunner) execSeparate(ctx context.Context, spec ExecSpec, out Output) (*ExecResult, error) {
	cfg, v := spec.Config, spec.Config.Verifier
	say := func(format string, args ...any) {
		if out.Stdout != nil {
			fmt.Fprintf(out.Stdout, "curate: "+format+"\n", args...)
		}
	}
	img, err := d.verifierImage(ctx, spec, out.Stdout)
	if err != nil {
		return &ExecResult{TestExit: -1}, err
	}

	// The agent phase: the task's image, the agent's network, no tests.
	agent := *cfg
	agent.Verifier, agent.Env, agent.User = nil, nil, ""
	agent.NetworkMode = cfg.AgentNetworkMode
	if agent.NetworkMode == "" {
		agent.NetworkMode = "no-network"
	}
	aspec := spec
	aspec.Config, aspec.KeepTestLog = &agent, false
	aspec.phase = &phaseSpec{
		script:  func(fromStdin bool) string { return agentScript(spec.Oracle, fromStdin, cfg) },
		archive: func(w io.Writer) error { return phaseArchive(w, spec.TaskDir, false, spec.Oracle, nil) },
	}
	say("agent phase in %s (the verifier runs in an environment of its own)", spec.Image)
	ares, err := d.Exec(ctx, aspec, out)
	if err != nil || ares.ExitCode == exitHealthcheck || ares.OOMKilledMB > 0 {
		return ares, err
	}
	if ares.Artifacts == nil {
		return ares, infra("the agent phase left no artifacts archive (exit %d; over %d MB, or the container was stopped)", ares.ExitCode, MaxTestLog>>20)
	}

	// The verifier phase: a fresh container of the verifier image.
	ver := *cfg
	ver.Verifier, ver.Healthcheck = nil, nil
	ver.NetworkMode, ver.AgentNetworkMode = v.NetworkMode, v.NetworkMode
	if v.CPUs > 0 {
		ver.CPUs = v.CPUs
	}
	if v.MemoryMB > 0 {
		ver.MemoryMB = v.MemoryMB
	}
	switch {
	case v.Workdir != "":
		ver.Workdir = v.Workdir
	case !v.UploadTests:
		ver.Workdir = "" // another image: its own working directory
	}
	vspec := spec
	vspec.Image, vspec.Oracle, vspec.Config = img, false, &ver
	vspec.phase = &phaseSpec{
		script: func(fromStdin bool) string {
			return script(false, fromStdin, spec.KeepTestLog, &ver)
		},
		archive: func(w io.Writer) error { return phaseArchive(w, spec.TaskDir, v.UploadTests, false, ares.Artifacts) },
	}
	say("verifier phase in %s (network %s)", img, ver.NetworkMode)
	vres, err := d.Exec(ctx, vspec, out)
	if vres != nil { // the run's CPU is both phases'
		vres.CPU += ares.CPU
		vres.CPUMeasured = vres.CPUMeasured && ares.CPUMeasured
	}
	return vres, err
}

// verifierImage is the image of the verifier container: docker_image
// (pulled when the engine lacks it), the image tests/Dockerfile builds, or
// the task's own.
func (d *DockerRunner) verifierImage(ctx context.Context, spec ExecSpec, out io.Writer) (string, error) {
	v := spec.Config.Verifier
	if out == nil {
		out = io.Discard
	}
	switch {
	case v.Image != "":
		if _, err := d.cli.ImageInspect(ctx, v.Image); err == nil {
			return v.Image, nil
		} else if !cerrdefs.IsNotFound(err) {
			return "", infra("inspect image %s: %w", v.Image, err)
		}
		fmt.Fprintf(out, "curate: pulling the verifier image %s\n", v.Image)
		rc, err := d.cli.ImagePull(ctx, v.Image, image.PullOptions{})
		if err != nil {
			return "", &BuildError{Phase: "verifier image", Msg: fmt.Sprintf("pull %s: %v", v.Image, err)}
		}
		defer rc.Close()
		if err := readBuildStream(rc, io.Discard); err != nil {
			return "", &BuildError{Phase: "verifier image", Msg: fmt.Sprintf("pull %s: %v", v.Image, err)}
		}
		return v.Image, nil
	case v.BuildDir != "":
		img, built, err := d.dirImage(ctx, v.BuildDir, spec.Config, out)
		if err != nil {
			var be *BuildError
			if errors.As(err, &be) {
				be.Phase = "build verifier image from tests/Dockerfile"
			}
			return "", err
		}
		if built {
			fmt.Fprintf(out, "curate: built verifier image %s from tests/\n", img)
		}
		return img, nil
	}
	return spec.Image, nil
}

// agentScript is the agent phase's container script: the healthcheck, the
// oracle when asked, then /logs/artifacts and the artifacts paths packed
// into artifactsTar for the trailer. A missing artifact is said and left
// out, as Harbor skips it.
func agentScript(oracle, fromStdin bool, cfg *TaskConfig) string {
	var b strings.Builder
	if fromStdin {
		b.WriteString("tar -x -f - -C / || { echo 'curate: could not unpack the task files' >&2; exit 97; }\n")
	}
	b.WriteString("mkdir -p /logs/verifier /logs/agent /logs/curate " + artifactsDir + " 2>/dev/null\n")
	b.WriteString(buildNotesScript)
	b.WriteString(healthcheckScript(cfg.Healthcheck))
	if oracle {
		b.WriteString("echo 'curate: oracle: bash /solution/solve.sh'\n")
		b.WriteString(captured("bash /solution/solve.sh", "/logs/agent/oracle.txt", "", false))
	}
	fmt.Fprintf(&b, "set -- %s\n", strings.TrimPrefix(artifactsDir, "/"))
	for _, p := range cfg.Artifacts {
		q := shellQuote(p)
		fmt.Fprintf(&b, "if [ -e %[1]s ] || [ -L %[1]s ]; then set -- \"$@\" %[2]s; else echo 'curate: artifact '%[1]s' does not exist after the agent phase'; fi\n",
			q, shellQuote(strings.TrimPrefix(p, "/")))
	}
	fmt.Fprintf(&b, "echo \"curate: carried to the verifier (relative to /): $*\"\ntar -c -f %s -C / \"$@\" || echo 'curate: could not pack the artifacts'\n", artifactsTar)
	b.WriteString(trailerScript([]string{artifactsTar}))
	return b.String()
}

// phaseArchive writes one phase's task files to w: writable /logs
// folders, tests/ as /tests, solution/ as /solution, and the entries of an
// artifacts tar at their own paths.
func phaseArchive(w io.Writer, taskDir string, tests, solution bool, artifacts []byte) error {
	tw := tar.NewWriter(w)
	for _, dir := range []string{"logs", "logs/verifier", "logs/agent", "logs/curate"} {
		if err := addDir(tw, dir, 0o777); err != nil {
			return err
		}
	}
	for _, x := range []struct {
		want bool
		name string
	}{{tests, "tests"}, {solution, "solution"}} {
		if !x.want {
			continue
		}
		if err := addDir(tw, x.name, 0o755); err != nil {
			return err
		}
		if err := writeTree(tw, filepath.Join(taskDir, x.name), x.name+"/"); err != nil {
			return fmt.Errorf("copy %s: %w", x.name, err)
		}
	}
	if err := copyTar(tw, artifacts); err != nil {
		return fmt.Errorf("carry the artifacts: %w", err)
	}
	return tw.Close()
}

// copyTar copies the entries of a tar made in the agent's container,
// leaving out any whose name would leave the root.
func copyTar(tw *tar.Writer, data []byte) error {
	if len(data) == 0 {
		return nil
	}
	tr := tar.NewReader(bytes.NewReader(data))
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		name := path.Clean(strings.TrimPrefix(hdr.Name, "/"))
		if name == "." || name == ".." || strings.HasPrefix(name, "../") {
			continue
		}
		if hdr.Typeflag == tar.TypeDir {
			name += "/"
		}
		hdr.Name = name
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		if _, err := io.Copy(tw, tr); err != nil {
			return err
		}
	}
}
