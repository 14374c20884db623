package validate

import (
	"archive/tar"
	"context"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/pkg/stdcopy"
)

// script is what the container runs: unpack the task files from stdin
// (when it runs as root), the oracle first when asked, then the verifier,
// teeing each to the files formats.md names, then the result trailer.
func script(oracle, fromStdin, keepTestLog bool, cfg *TaskConfig) string {
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
			b.WriteString(captured("bash /solution/solve.sh", "/logs/agent/oracle.txt", "", false))
		}
		b.WriteString("echo 'curate: verifier: bash /tests/test.sh'\n")
		b.WriteString(captured("bash /tests/test.sh", "/logs/verifier/test-stdout.txt", "/logs/curate/test-exit", false))
	}
	files := []string{"/logs/verifier/reward.json", "/logs/verifier/reward.txt", "/logs/curate/test-exit", stepRewardsFile}
	if keepTestLog {
		// Every verifier file: runners often write their report beside
		// the output (go test -json > go-test.json, JUnit XML).
		files = append(files, "/logs/verifier/*")
	}
	b.WriteString(trailerScript(files))
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
	env = d.applyTaskNetwork(ctx, host, env, "run", out.Stdout) // tasknet.go: [docker] task_network
	user := cfg.User
	if user == "" && d.user != "" && d.runsAsRoot(ctx, spec.Image, "") {
		user = d.user
		if _, ok := cfg.Env["HOME"]; !ok {
			env = append(env, "HOME=/tmp") // a uid without a passwd entry gets HOME=/, not writable
		}
	}
	viaStdin := d.runsAsRoot(ctx, spec.Image, user)
	cmd := script(spec.Oracle, viaStdin, spec.KeepTestLog, cfg)
	if spec.phase != nil {
		cmd = spec.phase.script(viaStdin)
	}
	// Declared before the container's removal, so it runs after it: the
	// parent's CPU then holds every process of the container.
	var res *ExecResult
	cpu := d.runParent(ctx)
	defer func() { d.doneParent(cpu, res) }()
	host.CgroupParent = cpu.cgroupParent()
	created, err := d.createContainer(ctx, &container.Config{
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
	}, host)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, infra("create container from %s: %w", spec.Image, err)
	}
	res = &ExecResult{Container: created.ID, TestExit: -1}
	defer d.remove(created.ID)
	if ctx.Err() != nil {
		return res, ctx.Err()
	}

	files := streamTaskArchive(spec)
	defer files.finish()
	if !viaStdin {
		err := d.cli.CopyToContainer(ctx, created.ID, "/", files, container.CopyToContainerOptions{})
		if aerr := files.finish(); aerr != nil {
			return res, &BuildError{Phase: "task files", Msg: aerr.Error()}
		}
		if err != nil {
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
	tap := newTrailerTap(stdout, trailerLimit)
	copied := make(chan struct{})
	go func() {
		stdcopy.StdCopy(tap, stderr, hj.Reader)
		close(copied)
	}()
	// Output held back after a marker reaches the log on every way out,
	// a run stopped at its time limit included.
	defer func() {
		hj.Close()
		select {
		case <-copied:
			tap.Flush()
		case <-time.After(5 * time.Second): // the stream never ended: no flush racing its writer
		}
	}()
	waitCh, errCh := d.cli.ContainerWait(ctx, created.ID, container.WaitConditionNextExit)
	if err := d.cli.ContainerStart(ctx, created.ID, container.StartOptions{}); err != nil {
		if host.Sysctls[ipv6Loopback] != "" && strings.Contains(err.Error(), "disable_ipv6") && !d.noIPv6.Swap(true) {
			// A kernel without IPv6 has no such sysctl: run without it.
			hj.Close()
			return d.Exec(ctx, spec, out)
		}
		return res, ctxOr(ctx, infra("start %s: %w", short(created.ID), err))
	}
	if host.StorageOpt == nil {
		lim, _ := d.Caps().Limits(cfg, d.limits)
		stopWatch := d.watchDisk(ctx, created.ID, lim.DiskMB)
		defer func() {
			if over := stopWatch(); over > 0 {
				res.DiskLimitMB, res.DiskUsedMB = lim.DiskMB, over
			}
		}()
	}
	if viaStdin {
		_, err := io.Copy(hj.Conn, files)
		hj.CloseWrite()
		if aerr := files.finish(); aerr != nil {
			return res, &BuildError{Phase: "task files", Msg: aerr.Error()}
		}
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
	if err != nil || res.ExitCode != 0 {
		// No trailer, or a script that did not reach its end (killed,
		// e.g. out of memory): read the files from the stopped
		// container instead.
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

// writeTaskArchive writes /tests, /solution (oracle only) and writable
// /logs folders to w as one tar archive.
func writeTaskArchive(w io.Writer, spec ExecSpec) error {
	if spec.phase != nil {
		return spec.phase.archive(w)
	}
	tw := tar.NewWriter(w)
	for _, dir := range []string{"logs", "logs/verifier", "logs/agent", "logs/curate"} {
		if err := addDir(tw, dir, 0o777); err != nil {
			return err
		}
	}
	if err := addDir(tw, "tests", 0o755); err != nil {
		return err
	}
	if err := writeTree(tw, filepath.Join(spec.TaskDir, "tests"), "tests/"); err != nil {
		return fmt.Errorf("copy tests: %w", err)
	}
	if spec.Oracle && !stepsOnly(spec) {
		if err := addDir(tw, "solution", 0o755); err != nil {
			return err
		}
		if err := writeTree(tw, filepath.Join(spec.TaskDir, "solution"), "solution/"); err != nil {
			return fmt.Errorf("copy solution: %w", err)
		}
	}
	if spec.Config != nil && len(spec.Config.Steps) > 0 {
		if err := addStepFiles(tw, spec); err != nil {
			return err
		}
	}
	return tw.Close()
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
