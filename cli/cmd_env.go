package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"curate/app"
	"curate/pipeline/validate"
)

func newEnvCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "env",
		Short: "Manage Docker images for validation: bootstrap a base image, prune what curate made",
		Example: `  curate env bootstrap
  curate env prune`,
	}
	cmd.AddCommand(newEnvBootstrapCmd(env), newEnvPruneCmd(env))
	return cmd
}

func newEnvBootstrapCmd(env *Env) *cobra.Command {
	var name, packages, mirror, host string
	var force bool
	cmd := &cobra.Command{
		Use:   "bootstrap",
		Short: "Build a Debian base image without a registry (debootstrap, then import into the engine)",
		Long: `Bootstrap makes a Debian bookworm root file system with debootstrap
(--variant=minbase, from the Debian mirror apt uses) and imports it into the
engine, so tasks whose Dockerfiles start FROM it validate on machines that
cannot pull images. It installs debootstrap with apt-get when missing and
does nothing when the image exists, unless --force.`,
		Example: `  curate env bootstrap
  curate env bootstrap --name curate/base:rust --packages python3,cargo,git,patch,bash`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			ws, err := env.Workspace(ctx)
			if err != nil {
				return err
			}
			var pkgs []string
			for _, p := range strings.Split(packages, ",") {
				if p = strings.TrimSpace(p); p != "" {
					pkgs = append(pkgs, p)
				}
			}
			return app.Bootstrap(ctx, ws, app.BootstrapOptions{Host: host, Name: name, Packages: pkgs, Mirror: mirror, Force: force, Log: env.Out})
		},
	}
	cmd.Flags().StringVar(&name, "name", validate.DefaultBaseImage, "image name to create")
	cmd.Flags().StringVar(&packages, "packages", "", "Debian packages to include, comma separated (default: "+strings.Join(validate.DefaultBasePackages, ",")+")")
	cmd.Flags().StringVar(&mirror, "mirror", "", "Debian mirror URL (default: the one in /etc/apt/sources.list.d)")
	cmd.Flags().StringVar(&host, "docker-host", "", "Docker engine to import into (default: DOCKER_HOST or the local socket)")
	cmd.Flags().BoolVar(&force, "force", false, "rebuild even when the image exists")
	return cmd
}

func newEnvPruneCmd(env *Env) *cobra.Command {
	var base, asJSON bool
	var hosts []string
	cmd := &cobra.Command{
		Use:   "prune",
		Short: "Remove the containers and environment images curate made for this workspace, and nothing else",
		Example: `  curate env prune
  curate env prune --base   # also the images made by env bootstrap`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			ws, err := env.Workspace(ctx)
			if err != nil {
				return err
			}
			total, pruneErr := app.Prune(ctx, ws, hosts, base, env.Err)
			if total == nil {
				return pruneErr
			}
			if asJSON {
				if err := writeJSON(env.Out, total); err != nil {
					return err
				}
			} else {
				for _, im := range total.Images {
					fmt.Fprintf(env.Out, "removed image %s\n", im)
				}
				fmt.Fprintf(env.Out, "removed %d container(s) and %d image(s)\n", len(total.Containers), len(total.Images))
			}
			return pruneErr
		},
	}
	cmd.Flags().BoolVar(&base, "base", false, "also remove base images made by 'curate env bootstrap' in this workspace")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print what was removed as JSON")
	cmd.Flags().StringArrayVar(&hosts, "docker-host", nil, "Docker engine (repeatable; default: [docker] hosts or the local engine)")
	return cmd
}
