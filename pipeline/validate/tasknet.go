package validate

import (
	"context"
	"fmt"
	"io"

	"github.com/docker/docker/api/types/container"
)

// What a task that asks for the network (allow_internet = true,
// network_mode = "public") gets is the workspace's choice, [docker]
// task_network: "allowlist" (the default) runs it on the build network,
// through the egress proxy, so it reaches the package registries and
// [network] allow and nothing else; "none" gives it no network; "public"
// the engine's bridge, from which the host and the local network answer.
const (
	TaskNetworkAllowlist = "allowlist"
	TaskNetworkNone      = "none"
	TaskNetworkPublic    = "public"
)

// SetTaskNetwork sets [docker] task_network ("" = allowlist).
func (d *DockerRunner) SetTaskNetwork(mode string) { d.taskNetwork = mode }

func (d *DockerRunner) taskNetworkMode() string {
	if d.taskNetwork == "" {
		return TaskNetworkAllowlist
	}
	return d.taskNetwork
}

// networkNote says, for the run log, what a task asking for the network
// gets; "" when it asks for none.
func (d *DockerRunner) networkNote(cfg *TaskConfig) string {
	if cfg == nil || (cfg.NetworkMode != "public" && cfg.AgentNetworkMode != "public") {
		return ""
	}
	what := map[string]string{
		TaskNetworkAllowlist: "the package registries and [network] allow, through curate's egress proxy",
		TaskNetworkNone:      "no network",
		TaskNetworkPublic:    "the engine's bridge network (the host and the local network too)",
	}[d.taskNetworkMode()]
	return fmt.Sprintf("curate: network: the task asks for the network; [docker] task_network = %q: %s", d.taskNetworkMode(), what)
}

// applyTaskNetwork turns the bridge hostConfig gave a task asking for the
// network into what task_network allows, and returns env with the proxy
// settings when it goes through the proxy. When the proxy cannot start,
// the task gets no network, said in out.
func (d *DockerRunner) applyTaskNetwork(ctx context.Context, host *container.HostConfig, env []string, token string, out io.Writer) []string {
	if host.NetworkMode != "bridge" {
		return env
	}
	switch d.taskNetworkMode() {
	case TaskNetworkPublic:
		return env
	case TaskNetworkNone:
		host.NetworkMode = "none"
		return env
	}
	e, err := d.egressNetwork(ctx)
	if err != nil {
		host.NetworkMode = "none"
		if out != nil {
			fmt.Fprintf(out, "curate: network: the egress proxy is not available (%v): the task runs without network\n", err)
		}
		return env
	}
	host.NetworkMode = container.NetworkMode(e.network)
	for k, v := range e.proxyEnv(token) {
		env = append(env, k+"="+v)
	}
	return env
}
