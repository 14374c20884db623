// Package testenv gives tests a Docker engine and cached images: a tiny
// busybox image (built in about a second) and a real Debian base image
// made by `curate env bootstrap` once per machine. Images are tagged by
// their content, so they are built only when that content changes, and a
// file lock keeps parallel test processes from building the same one twice.
package testenv

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/build"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/client"

	"curate/pipeline/validate"
)

// RequireDocker returns a client for the engine of the environment, or
// skips the test when none answers. With CURATE_REQUIRE_DOCKER=1 (CI) a
// missing engine fails the test instead.
func RequireDocker(t testing.TB) *client.Client {
	t.Helper()
	cli, err := validate.NewClient("")
	if err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, err = cli.Ping(ctx)
		cancel()
	}
	if err != nil {
		if os.Getenv("CURATE_REQUIRE_DOCKER") == "1" {
			t.Fatalf("CURATE_REQUIRE_DOCKER=1 but no Docker engine answers: %v", err)
		}
		t.Skipf("no Docker engine: %v", err)
	}
	t.Cleanup(func() { cli.Close() })
	return cli
}

var (
	mu     sync.Mutex
	images = map[string]string{}
)

// BusyboxImage returns a tiny image: Debian's static busybox FROM scratch,
// with /bin/sh and a /bin/bash that runs it, enough for shell test scripts.
func BusyboxImage(t testing.TB) string {
	t.Helper()
	cli := RequireDocker(t)
	dockerfile, bash, data := busyboxFiles(t)
	tag := "curate-test/busybox:" + hash(dockerfile, bash, string(data))
	return cached(t, tag, func(ctx context.Context) error { return buildBusybox(ctx, cli, tag, dockerfile, bash, data) })
}

// busyboxFiles is the content of the busybox image (see BusyboxImage).
func busyboxFiles(t testing.TB) (dockerfile, bash string, data []byte) {
	t.Helper()
	data, err := os.ReadFile("/bin/busybox")
	if err != nil {
		msg := fmt.Sprintf("busybox-static is not installed (%v): apt-get install busybox-static", err)
		if os.Getenv("CURATE_REQUIRE_DOCKER") == "1" {
			t.Fatal(msg) // CI promised every Docker test runs
		}
		t.Skip(msg)
	}
	dockerfile = "FROM scratch\nCOPY busybox /bin/busybox\nRUN [\"/bin/busybox\",\"--install\",\"-s\",\"/bin\"]\nCOPY bash /bin/bash\nRUN [\"/bin/busybox\",\"mkdir\",\"-p\",\"/tmp\",\"/usr/bin\"]\n"
	bash = "#!/bin/sh\nexec /bin/sh \"$@\"\n"
	return dockerfile, bash, data
}

// buildBusybox builds the busybox image as tag on the engine of cli.
func buildBusybox(ctx context.Context, cli *client.Client, tag, dockerfile, bash string, data []byte) error {
	return buildImage(ctx, cli, tag, []contextFile{{"Dockerfile", 0o644, []byte(dockerfile)}, {"busybox", 0o755, data}, {"bash", 0o755, []byte(bash)}})
}

// contextFile is one file of a build context.
type contextFile struct {
	name string
	mode int64
	body []byte
}

// buildImage builds tag from a build context of files, labelled as a
// test image of curate's.
func buildImage(ctx context.Context, cli *client.Client, tag string, files []contextFile) error {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, f := range files {
		tw.WriteHeader(&tar.Header{Name: f.name, Mode: f.mode, Size: int64(len(f.body)), Typeflag: tar.TypeReg})
		tw.Write(f.body)
	}
	tw.Close()
	resp, err := cli.ImageBuild(ctx, &buf, build.ImageBuildOptions{
		Tags: []string{tag}, Remove: true, ForceRemove: true, Version: build.BuilderV1,
		Labels: map[string]string{validate.LabelManaged: "true", validate.LabelKind: "test"},
	})
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var out bytes.Buffer
	if err := validate.ReadBuildOutput(resp.Body, &out); err != nil {
		return fmt.Errorf("%w\n%s", err, tail(out.String(), 2000))
	}
	return nil
}

// BasePackages are what the test base image holds: Python with pytest,
// venv and pip, Go, and what envgen puts in every task image (so task
// builds on it need no apt-get).
var BasePackages = []string{"python3", "python3-pytest", "python3-venv", "python3-pip", "golang-go", "bash", "patch", "git", "ca-certificates", "less"}

// BaseImage returns a Debian bookworm image made by validate.Bootstrap
// (the code behind `curate env bootstrap`), built once per machine.
func BaseImage(t testing.TB) string {
	t.Helper()
	cli := RequireDocker(t)
	tag := "curate-test/base:" + hash(strings.Join(BasePackages, ","), validate.DefaultSuite)
	return cached(t, tag, func(ctx context.Context) error {
		// An image `curate env bootstrap` made with these packages will do.
		if id := bootstrappedWith(ctx, cli, BasePackages); id != "" {
			return cli.ImageTag(ctx, id, tag)
		}
		var log bytes.Buffer
		_, err := validate.Bootstrap(ctx, cli, validate.BootstrapOptions{
			Name: tag, Packages: BasePackages, Log: &log,
			Labels: map[string]string{validate.LabelManaged: "true", validate.LabelKind: "test"},
		})
		if err != nil {
			return fmt.Errorf("%w\n%s", err, tail(log.String(), 2000))
		}
		return nil
	})
}

// bootstrappedWith finds a bootstrap image of the default suite holding
// every package named.
func bootstrappedWith(ctx context.Context, cli *client.Client, pkgs []string) string {
	list, err := cli.ImageList(ctx, image.ListOptions{Filters: filters.NewArgs(filters.Arg("label", validate.LabelSuite+"="+validate.DefaultSuite))})
	if err != nil {
		return ""
	}
	for _, im := range list {
		// Images built FROM a base inherit its labels: a task's env image
		// (kind env) has the packages too, and much else; only a
		// bootstrapped image itself will do.
		if k := im.Labels[validate.LabelKind]; k == "env" || k == "run" {
			continue
		}
		have := map[string]bool{}
		for _, p := range strings.Split(im.Labels[validate.LabelPackages], ",") {
			have[p] = true
		}
		all := true
		for _, p := range pkgs {
			all = all && have[p]
		}
		if all {
			return im.ID
		}
	}
	return ""
}

// cached builds tag unless it exists, once per process and, through a
// file lock, once per machine at a time.
func cached(t testing.TB, tag string, make func(context.Context) error) string {
	t.Helper()
	mu.Lock()
	defer mu.Unlock()
	if _, ok := images[tag]; ok {
		return tag
	}
	cli := RequireDocker(t)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	lockPath := filepath.Join(os.TempDir(), "curate-testenv-"+strings.NewReplacer("/", "_", ":", "_").Replace(tag)+".lock")
	lock, err := os.OpenFile(lockPath, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	if _, err := cli.ImageInspect(ctx, tag); err != nil {
		if !cerrdefs.IsNotFound(err) {
			t.Fatalf("inspect %s: %v", tag, err)
		}
		if err := make(ctx); err != nil {
			t.Fatalf("build test image %s: %v", tag, err)
		}
	}
	images[tag] = tag
	return tag
}

func hash(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}

// RequireCommand skips the test when the named program is not on PATH;
// with CURATE_REQUIRE_DOCKER=1 (CI) a missing program fails it instead, so
// the end-to-end tests cannot silently not run.
func RequireCommand(t testing.TB, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		if os.Getenv("CURATE_REQUIRE_DOCKER") == "1" {
			t.Fatalf("CURATE_REQUIRE_DOCKER=1 but %s is not installed (.ci/start-docker.sh installs it)", name)
		}
		t.Skipf("%s is not installed", name)
	}
}
