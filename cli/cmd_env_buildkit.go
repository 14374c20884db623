package cli

import (
	"github.com/spf13/cobra"

	"curate/app/kubeengine"
	"curate/pipeline/validate/kube"
)

func newEnvBuildKitCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "buildkit",
		Short: "BuildKit in the cluster, which builds task images with [kubernetes] builder = \"buildkit\"",
	}
	var image string
	install := &cobra.Command{
		Use:   "install",
		Short: "Install buildkitd into [kubernetes] namespace and wait until it answers",
		Long: `Install makes (or updates) a Deployment of one privileged buildkitd pod,
its ConfigMap and a Service named ` + kube.BuildKitName + ` in the namespace of
curate.toml [kubernetes], then waits until buildkitd answers through the API
server's port forward, as curate reaches it when [kubernetes] buildkit_addr
is unset. A registry on the node's loopback (127.0.0.1:5000) is reached
over plain HTTP from the node's network.`,
		Example: `  curate env buildkit install
  curate env buildkit install --image 127.0.0.1:5000/curate-buildkitd:v0.34.2`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			ws, err := env.Workspace(ctx)
			if err != nil {
				return err
			}
			return kubeengine.InstallBuildKit(ctx, ws, image, env.Out)
		},
	}
	install.Flags().StringVar(&image, "image", "", "buildkitd image the nodes pull (default "+kube.DefaultBuildKitImage+")")
	cmd.AddCommand(install)
	return cmd
}
