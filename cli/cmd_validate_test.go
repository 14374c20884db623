package cli

import (
	"context"
	"encoding/json"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"

	"curate/internal/testenv"
	"curate/pipeline"
	"curate/pipeline/validate"
	"curate/workspace"
)

// copyFixture copies a validate fixture task into the workspace's tasks/,
// its Dockerfile starting FROM image.
func copyFixture(t *testing.T, root, name, image string) string {
	t.Helper()
	src := filepath.Join("..", "pipeline", "validate", "testdata", "tasks", name)
	dst := filepath.Join(root, "tasks", name)
	err := filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		out := filepath.Join(dst, rel)
		if fi.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		data, _ := os.ReadFile(p)
		if fi.Name() == "Dockerfile" {
			data = []byte(strings.NewReplacer("FROM BUSYBOX", "FROM "+image, "FROM BASE", "FROM "+image).Replace(string(data)))
		}
		return os.WriteFile(out, data, fi.Mode())
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// newDockerWorkspace is newWorkspace whose containers and images are
// pruned when the test ends.
func newDockerWorkspace(t *testing.T) string {
	t.Helper()
	root := newWorkspace(t)
	t.Cleanup(func() { cli(t, "-w", root, "env", "prune") })
	return root
}

func TestValidateFollowRunsShow(t *testing.T) {
	img := testenv.BusyboxImage(t)
	root := newDockerWorkspace(t)
	dir := copyFixture(t, root, "bb-valid", img)
	copyFixture(t, root, "bb-nop-passed", img)

	code, out, errs := cli(t, "-w", root, "validate", dir, filepath.Join(root, "tasks", "bb-nop-passed"), "--mode", "nop,oracle", "--follow")
	if code != 3 {
		t.Fatalf("exit %d, want 3 (one task invalid)\n%s\n%s", code, out, errs)
	}
	// A folder is named as `import harbor` names it: task.toml's id, else
	// the folder's name ([task] name = "fixtures/bb-valid" is not an id).
	for _, want := range []string{"[bb-valid oracle] curate: oracle: bash /solution/solve.sh", "[bb-valid nop] not ok 2 - value is fixed",
		"nop_passed reward=1", "4 run(s): 3 ok, 1 not ok"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if !regexp.MustCompile(` bb-valid +ok reward=1`).MatchString(out) {
		t.Errorf("output lacks bb-valid's verdict:\n%s", out)
	}
	code, out, _ = cli(t, "-w", root, "runs", "--json")
	var runs []pipeline.Run
	if err := json.Unmarshal([]byte(out), &runs); err != nil || code != 0 || len(runs) != 4 {
		t.Fatalf("runs --json: %d runs, %v\n%s", len(runs), err, out)
	}
	for _, r := range runs {
		if r.Digest == "" || !r.Outcome.Finished() || r.PID != os.Getpid() {
			t.Errorf("run %+v", r)
		}
	}
	code, out, _ = cli(t, "-w", root, "runs", "show", runs[0].ID, "--log")
	if code != 0 || !strings.Contains(out, "outcome") || !strings.Contains(out, "--- log") || !strings.Contains(out, "curate: outcome") {
		t.Fatalf("runs show:\n%s", out)
	}
	// Task status follows the verdict.
	_, out, _ = cli(t, "-w", root, "list", "--json")
	if !strings.Contains(out, `"status":"valid"`) || !strings.Contains(out, `"status":"invalid"`) {
		t.Errorf("statuses not recorded:\n%s", out)
	}
	// env prune removes this workspace's env image.
	code, out, _ = cli(t, "-w", root, "env", "prune")
	if code != 0 || !strings.Contains(out, "removed image curate-env:") {
		t.Fatalf("prune:\n%s", out)
	}
}

func TestValidateSkipsTasksWithoutDir(t *testing.T) {
	testenv.RequireDocker(t)
	root := newDockerWorkspace(t)
	ws, err := workspace.Open(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	ws.Store.UpsertTasks(context.Background(), []*pipeline.Task{{ID: "no-dir", Benchmark: "b", Status: pipeline.StatusCandidate}})
	ws.Close()
	code, out, errs := cli(t, "-w", root, "validate", "--all")
	if code != 0 || !strings.Contains(errs, "skip no-dir: no task dir") || !strings.Contains(out, "nothing to validate") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	// Named, it cannot run: an error that says how to make it runnable.
	code, _, errs = cli(t, "-w", root, "validate", "no-dir")
	if code == 0 || !strings.Contains(errs, "none of the 1 named task(s) has a usable task dir (build them first: curate build no-dir)") {
		t.Fatalf("named: exit %d\n%s", code, errs)
	}
}

// A run left "running" by a killed curate is marked interrupted on the next
// start, and its container is removed.
func TestInterruptedRunsRecovered(t *testing.T) {
	img := testenv.BusyboxImage(t)
	dockerCli := testenv.RequireDocker(t)
	root := newDockerWorkspace(t)
	ctx := context.Background()
	c, err := dockerCli.ContainerCreate(ctx, &container.Config{Image: img, Cmd: []string{"sleep", "60"},
		Labels: map[string]string{validate.LabelManaged: "true", validate.LabelWorkspace: root, validate.LabelRun: "r-dead"}}, nil, nil, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	ws, _ := workspace.Open(ctx, root)
	// pid 0x7ffffff0 does not exist.
	ws.Store.SaveRun(ctx, &pipeline.Run{ID: "r-dead", TaskID: "x", Mode: "nop", Outcome: pipeline.OutcomeRunning, PID: 0x7ffffff0, StartedAt: time.Now()})
	ws.Close()
	// Any command recovers it, not only the next validate.
	code, _, errs := cli(t, "-w", root, "list")
	if code != 0 || !strings.Contains(errs, "1 run(s) of a stopped curate marked interrupted, 1 container(s) removed") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if _, err := dockerCli.ContainerInspect(ctx, c.ID); err == nil {
		t.Fatal("container still there")
	}
	_, out, _ := cli(t, "-w", root, "runs")
	if !strings.Contains(out, "interrupted") {
		t.Fatalf("runs:\n%s", out)
	}
}

// `curate runs cancel` from another process: the owner polls the marker,
// stops the container and records cancelled.
func TestRunsCancel(t *testing.T) {
	img := testenv.BusyboxImage(t)
	root := newDockerWorkspace(t)
	dir := copyFixture(t, root, "bb-slow", img)
	done := make(chan string)
	go func() {
		_, out, _ := cli(t, "-w", root, "validate", dir, "--mode", "nop")
		done <- out
	}()
	var id string
	for i := 0; i < 100 && id == ""; i++ {
		time.Sleep(200 * time.Millisecond)
		_, out, _ := cli(t, "-w", root, "runs", "--json")
		var runs []pipeline.Run
		json.Unmarshal([]byte(out), &runs)
		if len(runs) == 1 && runs[0].Outcome == pipeline.OutcomeRunning {
			id = runs[0].ID
		}
	}
	if id == "" {
		t.Fatal("run never started")
	}
	time.Sleep(time.Second)
	code, out, errs := cli(t, "-w", root, "runs", "cancel", id)
	// The owner (the validate above) is alive: cancel leaves the marker and
	// waits for the owner to record the outcome.
	if code != 0 || !strings.Contains(out, "run "+id+": cancelled") {
		t.Fatalf("cancel: %s %s", out, errs)
	}
	select {
	case out := <-done:
		if !strings.Contains(out, "cancelled") {
			t.Fatalf("validate output:\n%s", out)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("validate did not stop")
	}
	_, out, _ = cli(t, "-w", root, "runs", "show", id)
	if !strings.Contains(out, "cancelled") {
		t.Fatalf("runs show:\n%s", out)
	}
}

// Several engines: those that answer share the pool, the others are named
// and left out.
func TestValidateSeveralDockerHosts(t *testing.T) {
	img := testenv.BusyboxImage(t)
	root := newDockerWorkspace(t)
	dir := copyFixture(t, root, "bb-valid", img)
	code, out, errs := cli(t, "-w", root, "validate", dir, "--mode", "nop,oracle", "--json",
		"--docker-host", "unix:///var/run/docker.sock", "--docker-host", "unix:///nonexistent/docker.sock")
	if code != 0 || !strings.Contains(errs, "leaving out unix:///nonexistent/docker.sock") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	var runs []pipeline.Run
	if err := json.Unmarshal([]byte(out), &runs); err != nil || len(runs) != 2 || runs[0].DockerHost != "unix:///var/run/docker.sock" {
		t.Fatalf("runs %+v %v", runs, err)
	}
	code, _, errs = cli(t, "-w", root, "validate", dir, "--docker-host", "unix:///nonexistent/docker.sock")
	if code == 0 || !strings.Contains(errs, "no Docker engine answers") {
		t.Fatalf("exit %d: %s", code, errs)
	}
}

// SIGKILL of a real `curate validate` at random moments (before, while
// and after its container starts), killRounds times: the next command
// (here `list`) marks the run interrupted and removes its container; after
// each round the database is intact, no run is left running, no container
// of this workspace is left and no cancel marker or temp file is behind.
func TestKilledValidateRecoveredByNextCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("kills 50 processes")
	}
	img := testenv.BusyboxImage(t)
	dockerCli := testenv.RequireDocker(t)
	root := newDockerWorkspace(t)
	dir := copyFixture(t, root, "bb-slow", img)
	ctx := context.Background()
	containers := func() []string {
		list, err := dockerCli.ContainerList(ctx, container.ListOptions{All: true,
			Filters: filters.NewArgs(filters.Arg("label", validate.LabelWorkspace+"="+root), filters.Arg("label", validate.LabelKind+"=run"))})
		if err != nil {
			t.Fatal(err)
		}
		ids := make([]string, len(list))
		for i, c := range list {
			ids[i] = c.ID
		}
		return ids
	}
	// How long until the container runs: the first time builds the image,
	// the second is what a round meets.
	var untilRunning time.Duration
	for i := 0; i < 2; i++ {
		start := time.Now()
		cmd := startCLI(t, "-w", root, "validate", dir, "--mode", "nop")
		for len(containers()) == 0 {
			if time.Since(start) > 90*time.Second {
				cmd.Process.Kill()
				t.Fatal("no container started")
			}
			time.Sleep(10 * time.Millisecond)
		}
		untilRunning = time.Since(start)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		if code, _, errs := cli(t, "-w", root, "list"); code != 0 {
			t.Fatal(errs)
		}
	}
	rng := rand.New(rand.NewSource(time.Now().UnixNano()))
	interrupted := 0
	for round := 0; round < killRounds; round++ {
		events, finished := committed(t, root)
		killAfter(t, time.Duration(rng.Int63n(int64(untilRunning)*3/2)), "-w", root, "validate", dir, "--mode", "nop")
		code, _, errs := cli(t, "-w", root, "list")
		if code != 0 {
			t.Fatalf("round %d: exit %d: %s", round, code, errs)
		}
		if strings.Contains(errs, "marked interrupted") {
			interrupted++
		}
		// No grace here: recovery itself waits for a create the engine
		// finishes after the kill.
		if left := containers(); len(left) > 0 {
			t.Fatalf("round %d: containers left: %v (%s)", round, left, errs)
		}
		checkAfterValidateKill(t, root, round)
		// Nothing committed before the kill is lost: events and finished runs only grow.
		if e, f := committed(t, root); e < events || f < finished {
			t.Fatalf("round %d: events %d -> %d, finished runs %d -> %d", round, events, e, finished, f)
		}
	}
	t.Logf("%d kills, %d hit a run in flight (container up after %v)", killRounds, interrupted, untilRunning)
	if interrupted == 0 {
		t.Fatal("no kill hit a run in flight")
	}
}

// committed counts the events and the finished runs in the database.
func committed(t *testing.T, root string) (events, finished int) {
	t.Helper()
	db := openIntact(t, root)
	defer db.Close()
	if err := db.QueryRow("SELECT count(*) FROM events").Scan(&events); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow("SELECT count(*) FROM runs WHERE outcome NOT IN ('pending', 'running')").Scan(&finished); err != nil {
		t.Fatal(err)
	}
	return events, finished
}

// checkAfterValidateKill checks the workspace after a killed validate and
// the next command: integrity_check, no run left pending or running, no
// cancel marker, no temp file in the workspace's own dirs.
func checkAfterValidateKill(t *testing.T, root string, round int) {
	t.Helper()
	db := openIntact(t, root)
	defer db.Close()
	var inFlight int
	if err := db.QueryRow("SELECT count(*) FROM runs WHERE outcome IN ('pending', 'running')").Scan(&inFlight); err != nil || inFlight > 0 {
		t.Fatalf("round %d: %d runs left in flight (%v)", round, inFlight, err)
	}
	var left []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		name := d.Name()
		if strings.HasSuffix(name, ".cancel") || strings.Contains(name, ".tmp") || strings.HasSuffix(name, ".old") {
			left = append(left, p)
		}
		return nil
	})
	if j, _ := filepath.Glob(filepath.Join(root, ".curate", "journal", "*")); len(j) > 0 {
		left = append(left, j...)
	}
	if len(left) > 0 {
		t.Fatalf("round %d: leftovers %v", round, left)
	}
}

// A build that failed is summed up by the tool's own error line, not by
// the builder's quote of the RUN line (apache/commons-lang-1777: 1,800
// characters of Maven flags and a retry loop before Maven's line).
func TestRunLineOfAFailedBuildIsTheEvidence(t *testing.T) {
	r := &pipeline.Run{ID: "r1", Mode: "nop", TaskID: "o__r-1", Outcome: pipeline.OutcomeBuildFailed,
		Detail:  `build environment image: Step 23/26 : RUN curate-step "Maven Central" 's/x/y/p' sh -c 'n=1; until mvn -B -ntp test -Dtest='\''StopWatchTest'\'' ...`,
		Failure: &pipeline.Failure{Class: pipeline.ClassToolchainMismatch, Evidence: "[ERROR] Detected Maven Version: 3.8.7 is not in the allowed range [3.9,)."}}
	want := "r1  nop     o__r-1                 build_failed [toolchain_mismatch] - [ERROR] Detected Maven Version: 3.8.7 is not in the allowed range [3.9,)."
	if got := runLine(r); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
