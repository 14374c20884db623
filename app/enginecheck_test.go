package app

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"curate/workspace"
)

// answeringEngine is an HTTP server that answers the Docker ping.
func answeringEngine(t *testing.T) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Api-Version", "1.43")
		w.Write([]byte("OK"))
	}))
	t.Cleanup(srv.Close)
	return "tcp://" + strings.TrimPrefix(srv.URL, "http://")
}

func TestCheckEnginesNamesTheOneDown(t *testing.T) {
	up := answeringEngine(t)
	down := "unix://" + filepath.Join(t.TempDir(), "no-docker.sock")
	ws := &workspace.Workspace{Root: t.TempDir(), Config: &workspace.Config{}}

	ws.Config.Docker.Hosts = []string{up}
	if r := CheckEngines(context.Background(), ws, nil); r.Problem() != "" || r.AllDown() {
		t.Fatalf("one answering engine: %q", r.Problem())
	}

	ws.Config.Docker.Hosts = []string{down}
	r := CheckEngines(context.Background(), ws, nil)
	if want := "Docker at " + down + " does not answer: start it or set [docker] hosts"; r.Problem() != want || !r.AllDown() {
		t.Fatalf("one engine down:\n got %q\nwant %q", r.Problem(), want)
	}

	ws.Config.Docker.Hosts = []string{up, down}
	r = CheckEngines(context.Background(), ws, nil)
	want := "Docker at " + down + " does not answer (1 of 2 engines): validation runs on the others; start it or remove it from [docker] hosts"
	if r.Problem() != want || r.AllDown() {
		t.Fatalf("one of two down:\n got %q\nwant %q", r.Problem(), want)
	}

	ws.Config.Docker.Hosts = []string{down, down + "2"}
	if r := CheckEngines(context.Background(), ws, nil); !r.AllDown() || !strings.HasPrefix(r.Problem(), "no Docker engine answers ("+down+", "+down+"2)") {
		t.Fatalf("all down: %q", r.Problem())
	}

	// No [docker] hosts: the environment's engine, named by DOCKER_HOST.
	ws.Config.Docker.Hosts = nil
	t.Setenv("DOCKER_HOST", down)
	if r := CheckEngines(context.Background(), ws, nil); !strings.HasPrefix(r.Problem(), "Docker at "+down+" does not answer") {
		t.Fatalf("DOCKER_HOST down: %q", r.Problem())
	}
}

// middle cuts s to w cells by its middle, as the workbench's
// frame.TruncateMiddle does.
func middle(s string, w int) string {
	if len(s) <= w {
		return s
	}
	tail := (w - 1) / 2
	return s[:w-1-tail] + "…" + s[len(s)-tail:]
}

// ProblemFit keeps what to do whole in the room a status line leaves at
// 80 columns, shortening the engine's name in the middle.
func TestProblemFitKeepsTheAdvice(t *testing.T) {
	sock := "unix:///var/run/docker.sock"
	one := EngineReport{{Name: sock, Err: errDown}}
	if got, want := one.Problem(), "Docker at "+sock+" does not answer: start it or set [docker] hosts"; got != want {
		t.Fatalf("Problem:\n got %q\nwant %q", got, want)
	}
	if got := one.ProblemFit(90, middle); got != one.Problem() {
		t.Errorf("fits 90 whole: %q", got)
	}
	for _, w := range []int{80, 69, 64} {
		got := one.ProblemFit(w, middle)
		if cells(got) > w || !strings.HasSuffix(got, " does not answer: start it or set [docker] hosts") || !strings.Contains(got, "…") {
			t.Errorf("width %d: %q (%d cells)", w, got, cells(got))
		}
	}
	if got := one.ProblemFit(80, middle); !strings.HasPrefix(got, "Docker at unix:///") {
		t.Errorf("width 80 drops the lead needlessly: %q", got)
	}
	long := EngineReport{{Name: "unix:///home/curator/.local/share/containers/podman/machine/podman.sock", Err: errDown}}
	if got := long.ProblemFit(69, middle); cells(got) > 69 || !strings.HasPrefix(got, "unix:///") || !strings.HasSuffix(got, "man.sock does not answer: start it or set [docker] hosts") {
		t.Errorf("a long socket at 69: %q", got)
	}
	two := EngineReport{{Name: sock, Err: errDown}, {Name: "tcp://ci-2:2376", Err: errDown}}
	if got := two.ProblemFit(69, middle); cells(got) > 69 || !strings.HasSuffix(got, "): start one or fix [docker] hosts") {
		t.Errorf("all down at 69: %q", got)
	}
	if (EngineReport{{Name: sock}}).ProblemFit(60, middle) != "" {
		t.Error("an answering engine has a problem")
	}
}

var errDown = errors.New("connection refused")
