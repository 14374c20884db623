package app

import (
	"context"
	"io"
	"path/filepath"

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

// Bootstrap builds a base image (debootstrap) into one engine, labelled as
// this workspace's.
func Bootstrap(ctx context.Context, ws *workspace.Workspace, o BootstrapOptions) error {
	runners, err := OpenRunners(ctx, ws, []string{o.Host}, o.Log)
	if err != nil {
		return err
	}
	r := runners[0]
	defer r.Close()
	pkgs := o.Packages
	if pkgs == nil {
		pkgs = validate.DefaultBasePackages
	}
	_, err = validate.Bootstrap(ctx, r.Client(), validate.BootstrapOptions{
		Name: o.Name, Packages: pkgs, Mirror: o.Mirror, Force: o.Force, Log: o.Log,
		WorkDir: filepath.Join(ws.CachePath(), "bootstrap"),
		Labels:  r.Labels("base", nil),
	})
	return err
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
