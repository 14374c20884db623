package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// buildDemo builds the real curate binary and a demo workspace beside it,
// for end-to-end tests.
func buildDemo(t *testing.T) (bin, demo string) {
	t.Helper()
	dir := t.TempDir()
	bin = filepath.Join(dir, "curate")
	if out, err := exec.Command("go", "build", "-o", bin, "..").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	demo = filepath.Join(dir, "demo")
	if out, err := exec.Command(bin, "demo", "--dir", demo, "--no-open").CombinedOutput(); err != nil {
		t.Fatalf("curate demo: %v\n%s", err, out)
	}
	return bin, demo
}

// tmuxPane is a command running in a 160x45 pane of its own tmux server,
// read with capture-pane and driven with send-keys.
type tmuxPane struct {
	t              *testing.T
	socket, stderr string
}

// startTmux runs command (its stderr kept for failure messages) with the
// given NAME=VALUE environment, and kills the server when the test ends.
func startTmux(t *testing.T, command string, env ...string) *tmuxPane {
	t.Helper()
	p := &tmuxPane{t: t, socket: fmt.Sprintf("curate-%s-%d", strings.ReplaceAll(t.Name(), "/", "-"), os.Getpid()),
		stderr: filepath.Join(t.TempDir(), "stderr")}
	args := []string{"new-session", "-d", "-x", "160", "-y", "45"}
	for _, e := range env {
		args = append(args, "-e", e)
	}
	p.tm(append(args, command+" 2>"+p.stderr)...)
	t.Cleanup(func() { exec.Command("tmux", "-L", p.socket, "kill-server").Run() })
	return p
}

func (p *tmuxPane) tm(args ...string) string {
	p.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", p.socket}, args...)...).CombinedOutput()
	if err != nil {
		p.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// screen is what the pane shows now.
func (p *tmuxPane) screen() string { return p.tm("capture-pane", "-p", "-t", "0") }

// wait polls until every text is on screen, failing after limit with the
// screen and the program's stderr.
func (p *tmuxPane) wait(what string, limit time.Duration, texts ...string) string {
	p.t.Helper()
	deadline := time.Now().Add(limit)
	for {
		s := p.screen()
		ok := true
		for _, x := range texts {
			ok = ok && strings.Contains(s, x)
		}
		if ok {
			return s
		}
		if time.Now().After(deadline) {
			errs, _ := os.ReadFile(p.stderr)
			p.t.Fatalf("%s: %q not on screen:\n%s\nstderr: %s", what, texts, s, errs)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// keys sends key names (Enter, Tab, C-c ...); text sends literal text.
func (p *tmuxPane) keys(k ...string) { p.tm(append([]string{"send-keys", "-t", "0"}, k...)...) }
func (p *tmuxPane) text(s string)    { p.tm("send-keys", "-t", "0", "-l", s) }

// waitExit waits up to limit for the program (and so the session) to end.
func (p *tmuxPane) waitExit(limit time.Duration) {
	deadline := time.Now().Add(limit)
	for exec.Command("tmux", "-L", p.socket, "has-session").Run() == nil && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
}
