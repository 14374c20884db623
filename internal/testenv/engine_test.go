package testenv

import (
	"context"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/docker/docker/api/types/network"
)

// A network made on a test engine that is then killed leaves no bridge in
// the host's namespace once the test ends, and its address came from the
// engine's own pool, not from Docker's defaults that the machine's engine
// draws on (stale bridges there once made the machine engine's network
// creation fail: "could not find an available, non-overlapping IPv4
// address pool").
func TestKilledEngineLeavesNoNetworkBridge(t *testing.T) {
	var bridge, addr string
	t.Run("engine", func(t *testing.T) {
		e := StartEngine(t)
		created, err := e.Client.NetworkCreate(context.Background(), "curate-test-pool", network.CreateOptions{Driver: "bridge", Internal: true})
		if err != nil {
			t.Fatal(err)
		}
		bridge = "br-" + created.ID[:12]
		out, err := exec.Command("ip", "-o", "-4", "addr", "show", "dev", bridge).Output()
		if err != nil {
			t.Fatalf("no bridge %s for the network: %v", bridge, err)
		}
		addr = string(out)
		e.Kill(t, syscall.SIGKILL)
	})
	if bridge == "" {
		return // the engine could not start (skipped or failed above)
	}
	if !strings.Contains(addr, " 10.240.") {
		t.Errorf("network address not from the engine's own pool 10.240.N.0/24: %s", addr)
	}
	if out, err := exec.Command("ip", "link", "show", bridge).CombinedOutput(); err == nil {
		exec.Command("ip", "link", "del", bridge).Run()
		t.Fatalf("bridge %s of the killed engine's network left behind:\n%s", bridge, out)
	}
}
