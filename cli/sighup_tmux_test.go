package cli

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"

	"curate/internal/testenv"
	"curate/pipeline/validate"
)

// The terminal closing while the workbench asks "Quit with runs in
// flight?" (tmux's server killed: SIGHUP) stops the runs, records them
// and removes their containers before the process ends; nothing is left
// for the next command to recover.
func TestSIGHUPAtWorkbenchQuitPrompt(t *testing.T) {
	testenv.RequireCommand(t, "tmux")
	img := testenv.BusyboxImage(t)
	dockerCli := testenv.RequireDocker(t)
	root := newDockerWorkspace(t)
	src := t.TempDir()
	copyFixture(t, src, "bb-slow", img)
	if code, _, errs := cli(t, "-w", root, "import", "harbor", filepath.Join(src, "tasks")); code != 0 {
		t.Fatalf("import: %s", errs)
	}
	bin := filepath.Join(t.TempDir(), "curate")
	if out, err := exec.Command("go", "build", "-o", bin, "..").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ctx := context.Background()
	containers := func() int {
		list, err := dockerCli.ContainerList(ctx, container.ListOptions{All: true,
			Filters: filters.NewArgs(filters.Arg("label", validate.LabelWorkspace+"="+root), filters.Arg("label", validate.LabelKind+"=run"))})
		if err != nil {
			t.Fatal(err)
		}
		return len(list)
	}

	tp := startTmux(t, bin+" --workspace "+root)
	tp.wait("start", 30*time.Second, "[F1 Candidates]")
	tp.keys("/")
	tp.text("bb-slow")
	tp.wait("filtered", 30*time.Second, "1/")
	tp.keys("Enter", "Tab", "Tab", "Tab")
	tp.wait("runs screen", 10*time.Second, "[F4 Runs]")
	tp.keys("v")
	tp.wait("form", 5*time.Second, "Start a validation")
	tp.keys("Enter")
	deadline := time.Now().Add(90 * time.Second)
	for containers() == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("no container started:\n%s", tp.screen())
		}
		time.Sleep(100 * time.Millisecond)
	}
	tp.keys("q")
	tp.wait("quit question", 10*time.Second, "Quit with")
	exec.Command("tmux", "-L", tp.socket, "kill-server").Run() // the terminal closes: SIGHUP

	// Read the database and the engine directly: any curate command would
	// recover what a dead process left, and hide it.
	var inFlight, total int
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		db := openIntact(t, root)
		db.QueryRow("SELECT count(*) FROM runs WHERE outcome IN ('pending', 'running')").Scan(&inFlight)
		db.QueryRow("SELECT count(*) FROM runs").Scan(&total)
		db.Close()
		if total > 0 && inFlight == 0 && containers() == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after SIGHUP: %d of %d runs still in flight, %d container(s)", inFlight, total, containers())
		}
	}
}
