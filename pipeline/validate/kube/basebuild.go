package kube

import (
	"archive/tar"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"curate/pipeline"
	"curate/pipeline/validate"
)

// buildBase makes the default base image for builder = "buildkit": the
// root file system comes from Debian's archive with debootstrap on this
// machine (as `curate env bootstrap` makes it, no Docker engine needed),
// and buildkitd turns it into an image (ADD of its tar) pushed to the
// registry.
func (r *Runner) buildBase(ctx context.Context, out io.Writer) (string, error) {
	log := orDiscard(out)
	fmt.Fprintf(log, "curate: %s is not in the registry: making it from Debian's archive with debootstrap, built by buildkit (once, a minute or two)\n", validate.DefaultBaseImage)
	o := validate.BootstrapOptions{Name: validate.DefaultBaseImage, Packages: validate.DefaultBasePackages,
		WorkDir: filepath.Join(r.wsPath, ".curate", "cache", "bootstrap"), Log: log}
	root, err := validate.MakeRootFS(ctx, o)
	if err != nil {
		return "", validate.Infra(fmt.Errorf("make the base image %s: %w", validate.DefaultBaseImage, err))
	}
	defer os.RemoveAll(root)
	df := "FROM scratch\nADD rootfs.tar /\n" + strings.Join(validate.BaseImageConfig(o), "\n") + "\n"
	return r.buildContext(ctx, pipeline.TimeRepoImage, validate.DefaultBaseImage, "Dockerfile", func(tw *tar.Writer) error {
		if err := validate.AddFile(tw, "Dockerfile", []byte(df)); err != nil {
			return err
		}
		// The root file system as one tar file: ADD unpacks it with its
		// owners and device nodes, which a plain context copy would lose.
		tmp, err := os.CreateTemp("", "curate-rootfs-*.tar")
		if err != nil {
			return err
		}
		defer os.Remove(tmp.Name())
		defer tmp.Close()
		if err := validate.TarRootFS(root, tmp); err != nil {
			return err
		}
		size, err := tmp.Seek(0, io.SeekCurrent)
		if err != nil {
			return err
		}
		if _, err := tmp.Seek(0, io.SeekStart); err != nil {
			return err
		}
		if err := tw.WriteHeader(&tar.Header{Name: "rootfs.tar", Mode: 0o644, Size: size, Typeflag: tar.TypeReg}); err != nil {
			return err
		}
		_, err = io.CopyN(tw, tmp, size)
		return err
	}, nil, false, out)
}
