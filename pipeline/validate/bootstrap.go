package validate

import (
	"archive/tar"
	"bufio"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/client"
)

// Base image defaults for `curate env bootstrap`.
const (
	DefaultBaseImage = "curate/base:bookworm"
	DefaultSuite     = "bookworm"
	DefaultMirror    = "http://deb.debian.org/debian"
)

// Labels on bootstrap images saying what they hold, so a test or a tool can
// reuse an image made earlier instead of bootstrapping again.
const (
	LabelPackages = "curate.packages"
	LabelSuite    = "curate.suite"
)

// DefaultBasePackages serve Python (pytest, venv, pip) and Go tasks, with
// what every task image gets (envgen installs the rest with apt-get).
var DefaultBasePackages = []string{"python3", "python3-pytest", "python3-venv", "python3-pip", "git", "patch", "golang-go", "bash", "ca-certificates", "less"}

// BootstrapOptions configures a base image built without a registry.
type BootstrapOptions struct {
	Name     string   // image reference to create
	Packages []string // extra Debian packages (--include)
	Mirror   string   // "" = from /etc/apt/sources.list.d, else deb.debian.org
	WorkDir  string   // where the root file system is made (removed after)
	Force    bool     // rebuild even when the image exists
	Labels   map[string]string
	Log      io.Writer
}

// Bootstrap makes a Debian base image with debootstrap and imports it into
// the engine, so validation works on a machine that cannot pull images.
// It reports whether it built anything (false: the image already existed).
func Bootstrap(ctx context.Context, cli *client.Client, o BootstrapOptions) (bool, error) {
	if o.Name == "" {
		o.Name = DefaultBaseImage
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	if !o.Force {
		if _, err := cli.ImageInspect(ctx, o.Name); err == nil {
			fmt.Fprintf(o.Log, "image %s exists; nothing to do (use --force to rebuild)\n", o.Name)
			return false, nil
		} else if !cerrdefs.IsNotFound(err) {
			return false, infra("inspect %s: %w", o.Name, err)
		}
	}
	root, err := MakeRootFS(ctx, o)
	if err != nil {
		return false, err
	}
	defer os.RemoveAll(root)
	fmt.Fprintf(o.Log, "importing %s into the engine as %s\n", root, o.Name)
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(tarRootFS(root, pw)) }()
	changes := BaseImageConfig(o)
	rc, err := cli.ImageImport(ctx, image.ImportSource{Source: pr, SourceName: "-"}, o.Name, image.ImportOptions{Changes: changes, Message: "curate env bootstrap"})
	if err != nil {
		pr.CloseWithError(err)
		return false, infra("import %s: %w", o.Name, err)
	}
	defer rc.Close()
	if err := readBuildStream(rc, io.Discard); err != nil {
		return false, fmt.Errorf("import %s: %w", o.Name, err)
	}
	fmt.Fprintf(o.Log, "created %s\n", o.Name)
	return true, nil
}

// BaseImageConfig is the configuration of a bootstrapped base image, as
// Dockerfile instructions (ENV, CMD, LABEL) the import applies.
func BaseImageConfig(o BootstrapOptions) []string {
	changes := []string{
		"ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
		"ENV LANG=C.UTF-8",
		`CMD ["/bin/bash"]`,
	}
	labels := map[string]string{LabelPackages: strings.Join(o.Packages, ","), LabelSuite: DefaultSuite}
	for k, v := range o.Labels {
		labels[k] = v
	}
	for k, v := range labels {
		changes = append(changes, fmt.Sprintf("LABEL %s=%q", k, v))
	}
	return changes
}

// TarRootFS writes a root file system made by MakeRootFS as a tar stream.
func TarRootFS(root string, w io.Writer) error { return tarRootFS(root, w) }

// MakeRootFS makes a Debian root file system with debootstrap under
// o.WorkDir (the caller removes it), with the host's apt sources and
// without package caches.
func MakeRootFS(ctx context.Context, o BootstrapOptions) (string, error) {
	if o.Log == nil {
		o.Log = io.Discard
	}
	if err := ensureDebootstrap(ctx, o.Log); err != nil {
		return "", err
	}
	var sources []AptSource
	if o.Mirror == "" {
		o.Mirror = DebianMirror("/etc/apt/sources.list.d", "/etc/apt/sources.list")
		sources = HostAptSources("/etc/apt/sources.list.d", "/etc/apt/sources.list", DefaultSuite)
	}
	parent := o.WorkDir
	if parent == "" {
		parent = os.TempDir()
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", fmt.Errorf("bootstrap: %w", err)
	}
	fmt.Fprintf(o.Log, "cache: %s (the root file system is made there and removed after the import)\n", parent)
	root, err := os.MkdirTemp(parent, "rootfs-")
	if err != nil {
		return "", fmt.Errorf("bootstrap: %w", err)
	}
	args := []string{"--variant=minbase"}
	if len(o.Packages) > 0 {
		args = append(args, "--include="+strings.Join(o.Packages, ","))
	}
	args = append(args, DefaultSuite, root, o.Mirror)
	fmt.Fprintf(o.Log, "debootstrap %s\n", strings.Join(args, " "))
	cmd := exec.CommandContext(ctx, "debootstrap", args...)
	cmd.Stdout, cmd.Stderr = o.Log, o.Log
	if err := cmd.Run(); err != nil {
		os.RemoveAll(root)
		return "", fmt.Errorf("debootstrap %s from %s: %w (see output above)", DefaultSuite, o.Mirror, err)
	}
	// A mirror given by hand is used as given; the host's sources come with
	// the host's mirror.
	if sources != nil || o.Mirror == DebianMirror("/etc/apt/sources.list.d", "/etc/apt/sources.list") {
		if err := writeAptSources(root, sources, func(s string) { fmt.Fprintln(o.Log, s) }); err != nil {
			os.RemoveAll(root)
			return "", fmt.Errorf("bootstrap: apt sources: %w", err)
		}
	}
	// Slim the image: package caches are not needed at validation time.
	for _, d := range []string{"var/cache/apt/archives", "var/lib/apt/lists"} {
		entries, _ := os.ReadDir(filepath.Join(root, d))
		for _, e := range entries {
			if e.Type().IsRegular() {
				os.Remove(filepath.Join(root, d, e.Name()))
			}
		}
	}
	return root, nil
}

// ensureBase makes the default base image when a Dockerfile starts FROM
// it and the engine lacks it, so validation works on a machine with no
// registry and nothing prepared. Other images are left to the build.
func (d *DockerRunner) ensureBase(ctx context.Context, dockerfile string, out io.Writer) error {
	if baseImageOf(dockerfile) != DefaultBaseImage {
		return nil
	}
	d.baseMu.Lock()
	defer d.baseMu.Unlock()
	if _, err := d.cli.ImageInspect(ctx, DefaultBaseImage); err == nil {
		return nil
	} else if !cerrdefs.IsNotFound(err) {
		return infra("inspect %s: %w", DefaultBaseImage, err)
	}
	line := fmt.Sprintf("curate: %s is missing: making it from Debian's archive with debootstrap (once, a minute or two; `curate env bootstrap` does the same)\n", DefaultBaseImage)
	log := out
	if d.Progress != nil {
		fmt.Fprint(d.Progress, line)
	}
	if log == nil {
		log = io.Discard
	}
	fmt.Fprint(log, line)
	_, err := Bootstrap(ctx, d.cli, BootstrapOptions{Name: DefaultBaseImage, Packages: DefaultBasePackages,
		WorkDir: filepath.Join(d.workspace, ".curate", "cache", "bootstrap"), Log: log})
	if err != nil {
		return infra("make the base image %s: %w", DefaultBaseImage, err)
	}
	return nil
}

// baseImageOf is the image a Dockerfile's first FROM names ("" if none).
func baseImageOf(dockerfile string) string {
	f, err := os.Open(dockerfile)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && strings.EqualFold(fields[0], "FROM") {
			for _, x := range fields[1:] {
				if !strings.HasPrefix(x, "--") {
					return x
				}
			}
		}
	}
	return ""
}

func ensureDebootstrap(ctx context.Context, log io.Writer) error {
	if _, err := exec.LookPath("debootstrap"); err == nil {
		return nil
	}
	fmt.Fprintln(log, "debootstrap is missing: apt-get install -y debootstrap")
	cmd := exec.CommandContext(ctx, "apt-get", "install", "-y", "-q", "debootstrap")
	cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("install debootstrap (needs root and an apt mirror): %w", err)
	}
	return nil
}

// DebianMirror finds the Debian archive URL apt uses (deb822 .sources or
// one-line .list files), for the main archive rather than security.
func DebianMirror(dir, listFile string) string {
	var files []string
	if entries, err := os.ReadDir(dir); err == nil {
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".sources") || strings.HasSuffix(e.Name(), ".list") {
				files = append(files, filepath.Join(dir, e.Name()))
			}
		}
	}
	files = append(files, listFile)
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			var urls []string
			switch {
			case strings.HasPrefix(line, "URIs:"):
				urls = strings.Fields(strings.TrimPrefix(line, "URIs:"))
			case strings.HasPrefix(line, "deb "):
				for _, f := range strings.Fields(line)[1:] {
					if strings.Contains(f, "://") {
						urls = append(urls, f)
						break
					}
				}
			}
			for _, u := range urls {
				if strings.Contains(u, "debian") && !strings.Contains(u, "security") {
					fh.Close()
					return strings.TrimRight(u, "/")
				}
			}
		}
		fh.Close()
	}
	return DefaultMirror
}

// tarRootFS writes a root file system as a tar stream, keeping owners,
// modes, symlinks and device nodes (it is an OS image, so absolute links
// are expected and never followed).
func tarRootFS(root string, w io.Writer) error {
	tw := tar.NewWriter(w)
	err := filepath.WalkDir(root, func(full string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, full)
		if rel == "." {
			return nil
		}
		fi, err := os.Lstat(full)
		if err != nil {
			return err
		}
		link := ""
		if fi.Mode()&os.ModeSymlink != 0 {
			if link, err = os.Readlink(full); err != nil {
				return err
			}
		}
		hdr, err := tar.FileInfoHeader(fi, link)
		if err != nil {
			return nil // sockets and the like
		}
		hdr.Name = filepath.ToSlash(rel)
		if fi.IsDir() {
			hdr.Name += "/"
		}
		hdr.Uname, hdr.Gname = "", ""
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		if fi.Mode().IsRegular() {
			f, err := os.Open(full)
			if err != nil {
				return err
			}
			_, err = io.CopyN(tw, f, fi.Size())
			f.Close()
			return err
		}
		return nil
	})
	if err != nil {
		return err
	}
	return tw.Close()
}
