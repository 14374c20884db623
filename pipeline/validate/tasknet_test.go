package validate

import (
	"context"
	"strings"
	"testing"

	"github.com/docker/docker/api/types/container"
)

// task_network "none" takes the network from a task that asks for it,
// "public" leaves it the bridge; a task asking for none keeps none; the
// run log's note names the mode.
func TestTaskNetworkModes(t *testing.T) {
	asks := &TaskConfig{NetworkMode: "public"}
	for _, c := range []struct {
		mode, asked, want string
	}{
		{TaskNetworkNone, "bridge", "none"},
		{TaskNetworkPublic, "bridge", "bridge"},
		{TaskNetworkAllowlist, "none", "none"},
		{TaskNetworkPublic, "none", "none"},
	} {
		d := &DockerRunner{}
		d.SetTaskNetwork(c.mode)
		host := &container.HostConfig{NetworkMode: container.NetworkMode(c.asked)}
		d.applyTaskNetwork(context.Background(), host, nil, "run", nil)
		if string(host.NetworkMode) != c.want {
			t.Errorf("task_network %s, task gets %s: got %s, want %s", c.mode, c.asked, host.NetworkMode, c.want)
		}
		if n := d.networkNote(asks); !strings.Contains(n, `task_network = "`+c.mode+`"`) {
			t.Errorf("note for %s: %q", c.mode, n)
		}
	}
	if n := (&DockerRunner{}).networkNote(&TaskConfig{NetworkMode: "no-network"}); n != "" {
		t.Errorf("a task asking for no network got a note: %q", n)
	}
}
