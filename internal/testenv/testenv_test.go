package testenv

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// RequireDocker skips without an engine, and fails instead when
// CURATE_REQUIRE_DOCKER=1. Checked in a child process pointed at a socket
// where no engine listens.
func TestRequireDockerWithoutEngine(t *testing.T) {
	if os.Getenv("TESTENV_CHILD") == "1" {
		RequireDocker(t)
		t.Log("engine answered")
		return
	}
	for _, tc := range []struct {
		require  string
		wantFail bool
		want     string
	}{{"", false, "no Docker engine"}, {"1", true, "CURATE_REQUIRE_DOCKER=1 but no Docker engine answers"}} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestRequireDockerWithoutEngine$", "-test.v")
		cmd.Env = append(os.Environ(), "TESTENV_CHILD=1", "DOCKER_HOST=unix:///nonexistent/docker.sock", "CURATE_REQUIRE_DOCKER="+tc.require)
		out, err := cmd.CombinedOutput()
		if (err != nil) != tc.wantFail || !strings.Contains(string(out), tc.want) {
			t.Errorf("CURATE_REQUIRE_DOCKER=%q: err %v\n%s", tc.require, err, out)
		}
	}
}

func TestBusyboxImageTagIsStable(t *testing.T) {
	img := BusyboxImage(t)
	if !strings.HasPrefix(img, "curate-test/busybox:") || BusyboxImage(t) != img {
		t.Fatalf("tag %q not stable", img)
	}
}
