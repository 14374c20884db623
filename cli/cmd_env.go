package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"curate/app"
	"curate/app/kubeengine"
	"curate/pipeline/sanitize"
	"curate/pipeline/validate"
	"curate/workspace"
)

func newEnvCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "env",
		Short: "Manage Docker images for validation: bootstrap a base image, prune what curate made",
		Example: `  curate env bootstrap
  curate env check acme/calc
  curate env prune --unused`,
	}
	cmd.AddCommand(newEnvBootstrapCmd(env), newEnvPruneCmd(env), newEnvCheckCmd(env), newEnvAcceptCmd(env), newEnvPushCmd(env), newEnvBuildKitCmd(env))
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
does nothing when the image exists, unless --force. It needs no workspace:
outside one, the root file system is made under the user's cache folder
(curate/bootstrap in $XDG_CACHE_HOME, else ~/.cache) and the image belongs
to no workspace.`,
		Example: `  curate env bootstrap
  curate env bootstrap --name curate/base:rust --packages python3,cargo,git,patch,bash`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			ws, err := env.Workspace(ctx)
			if errors.Is(err, workspace.ErrNoWorkspace) {
				ws, err = nil, nil // the image goes to the engine; the cache to the user's
			}
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
	var base, asJSON, unused bool
	var hosts []string
	cmd := &cobra.Command{
		Use:   "prune",
		Short: "Remove the containers and environment images curate made for this workspace, and nothing else",
		Example: `  curate env prune
  curate env prune --base   # also the images made by env bootstrap
  curate env prune --unused # only repository images no built task stands on`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			ws, err := env.Workspace(ctx)
			if err != nil {
				return err
			}
			if unused {
				removed, err := app.PruneUnused(ctx, ws, hosts, env.Err)
				if asJSON {
					if jerr := writeJSON(env.Out, map[string][]string{"images": append([]string{}, removed...)}); jerr != nil {
						return jerr
					}
				} else {
					for _, im := range removed {
						fmt.Fprintf(env.Out, "removed image %s\n", im)
					}
					fmt.Fprintf(env.Out, "removed %d unused repository image(s)\n", len(removed))
				}
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
	cmd.Flags().BoolVar(&unused, "unused", false, "remove only the repository environment images no built task uses (and task images on them)")
	cmd.Flags().BoolVar(&base, "base", false, "also remove base images made by 'curate env bootstrap' in this workspace")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print what was removed as JSON")
	cmd.Flags().StringArrayVar(&hosts, "docker-host", nil, "Docker engine (repeatable; default: [docker] hosts or the local engine)")
	return cmd
}

func newEnvCheckCmd(env *Env) *cobra.Command {
	var host, at, engine string
	var asJSON, verbose, clusterOnly bool
	cmd := &cobra.Command{
		Use:   "check [OWNER/NAME...]",
		Short: "Build each repository's environment image at its snapshot and run the whole suite in it (pass/total; over 80% passes)",
		Long: `Check builds the environment image a repository's mirrored tasks share
(toolchain, dependencies, the repository at its snapshot, install) and runs
the whole test suite in it. The result is recorded per repository; build
--at auto mirrors a repository's PRs only when its check passed (or its
failing tests were accepted as known failures with env accept), and
validate names a repository whose check failed before any run starts. A
failed check lists its failing tests with their first error line.

With --engine kubernetes the cluster of curate.toml [kubernetes] is checked
first (API, namespace, registry, nodes, network policy); when it passes,
each repository's check runs there as a Job, as validation runs do (the
same caps, waiting for the cluster, cancel, recovery), its image built
locally and pushed, or by buildkitd with builder = "buildkit". With
--cluster, or no repositories mined or named, only the cluster is
checked. The result is recorded as a local check's is.`,
		Example: `  curate env check acme/calc
  curate env check --at snapshot:HEAD acme/calc --json
  curate env check --engine kubernetes acme/calc
  curate env check --engine kubernetes --cluster`,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			ws, err := env.Workspace(ctx)
			if err != nil {
				return err
			}
			var cluster []kubeengine.CheckLine
			switch {
			case clusterOnly && (engine != kubeengine.Name || len(args) > 0):
				return fmt.Errorf("--cluster checks the cluster alone: it goes with --engine %s and no repository", kubeengine.Name)
			case engine == kubeengine.Name:
				// The repositories' Jobs need a cluster that works.
				if cluster, err = kubeCheck(ctx, env, ws, asJSON); err != nil || clusterOnly {
					if err == nil && asJSON {
						err = writeJSON(env.Out, cluster)
					}
					return err
				}
			}
			var log io.Writer
			if verbose {
				log = env.Err
			}
			waitOut := env.Out // a check the cluster cannot take yet says so; not a failure
			if asJSON {
				waitOut = env.Err
			}
			states, err := app.CheckEnvironments(ctx, ws, app.EnvCheckOptions{Repos: args, Host: host, Engine: engine, At: at, Log: log, Concurrency: 1,
				Waiting: func(repo, why string) {
					if why != "" {
						fmt.Fprintln(waitOut, sanitize.Line(repo+"  waiting for the cluster: "+why))
					}
				}})
			if err != nil {
				return err
			}
			switch {
			case asJSON && cluster != nil && len(states) == 0:
				return writeJSON(env.Out, cluster)
			case asJSON && cluster != nil:
				return writeJSON(env.Out, map[string]any{"cluster": cluster, "repos": states})
			case asJSON:
				return writeJSON(env.Out, states)
			}
			failed := 0
			for _, st := range states {
				fmt.Fprintf(env.Out, "%-28s snapshot %s  %s\n", sanitize.Line(st.Repo), app.ShortRev(st.Snapshot), sanitize.Line(st.EnvCheck.String()))
				if !st.EnvCheck.OK {
					failed++
					printEnvFailures(env.Out, st)
				}
			}
			if failed > 0 {
				return exitError{code: 1, msg: fmt.Sprintf("%d of %d environment checks failed", failed, len(states))}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&host, "docker-host", "", "Docker engine (default: DOCKER_HOST or the local engine)")
	cmd.Flags().StringVar(&at, "at", "", "pin the snapshot first: snapshot:REV (default: the recorded one, else the default branch tip)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print each repository's state as JSON")
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "stream the image build and the suite's output to stderr")
	cmd.Flags().BoolVar(&clusterOnly, "cluster", false, "with --engine kubernetes: check the cluster only, no repository")
	cmd.Flags().StringVar(&engine, "engine", "docker", "kubernetes: check the [kubernetes] cluster (API, namespace, registry, nodes, network policy), then run the repositories' checks there as Jobs")
	return cmd
}
