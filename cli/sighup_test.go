package cli

import (
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"

	"curate/internal/testenv"
	"curate/pipeline"
	"curate/pipeline/validate"
)

// Closing the terminal (SIGHUP) stops `curate validate` as ctrl+c does:
// the run is recorded as stopped, never left running, and its container
// is removed before the process exits.
func TestSIGHUPStopsValidateCleanly(t *testing.T) {
	img := testenv.BusyboxImage(t)
	dockerCli := testenv.RequireDocker(t)
	root := newDockerWorkspace(t)
	dir := copyFixture(t, root, "bb-slow", img)
	ctx := context.Background()
	containers := func() int {
		list, err := dockerCli.ContainerList(ctx, container.ListOptions{All: true,
			Filters: filters.NewArgs(filters.Arg("label", validate.LabelWorkspace+"="+root), filters.Arg("label", validate.LabelKind+"=run"))})
		if err != nil {
			t.Fatal(err)
		}
		return len(list)
	}
	cmd := startCLI(t, "-w", root, "validate", dir, "--mode", "nop")
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	deadline := time.Now().Add(90 * time.Second)
	for containers() == 0 {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("no container started")
		}
		time.Sleep(50 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGHUP)
	var err error
	select {
	case err = <-done:
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatal("validate did not stop on SIGHUP")
	}
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == -1 {
		t.Fatalf("killed by the signal instead of stopping: %v", err)
	}
	// No recovery in between: what the stopped process itself left.
	if n := containers(); n > 0 {
		t.Fatalf("%d container(s) left (exit %v)", n, err)
	}
	db := openIntact(t, root)
	defer db.Close()
	var outcome string
	if err := db.QueryRow("SELECT outcome FROM runs").Scan(&outcome); err != nil {
		t.Fatal(err)
	}
	if o := pipeline.Outcome(outcome); !o.Finished() || o == pipeline.OutcomeOK {
		t.Fatalf("run outcome %s after SIGHUP", outcome)
	}
	_, out, _ := cli(t, "-w", root, "runs", "--json")
	var runs []pipeline.Run
	if json.Unmarshal([]byte(out), &runs); len(runs) != 1 || !strings.Contains(string(runs[0].Outcome), "cancel") {
		t.Fatalf("runs: %s", out)
	}
}
