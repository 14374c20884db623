package app

import (
	"context"
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
	if want := "Docker engine at " + down + " does not answer: start it, or set [docker] hosts"; r.Problem() != want || !r.AllDown() {
		t.Fatalf("one engine down:\n got %q\nwant %q", r.Problem(), want)
	}

	ws.Config.Docker.Hosts = []string{up, down}
	r = CheckEngines(context.Background(), ws, nil)
	want := "Docker engine at " + down + " does not answer (1 of 2 engines): validation runs on the others; start it, or remove it from [docker] hosts"
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
	if r := CheckEngines(context.Background(), ws, nil); !strings.HasPrefix(r.Problem(), "Docker engine at "+down+" does not answer") {
		t.Fatalf("DOCKER_HOST down: %q", r.Problem())
	}
}
