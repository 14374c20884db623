package testenv

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/docker/docker/client"

	"curate/pipeline/validate"
)

// Engine is a Docker engine of a test's own: a second dockerd with its own
// data root, exec root, socket, cgroup parent and bridge, and no iptables
// rules, so it touches nothing of the machine's engine. (Not
// --bridge=none: a dockerd started so deletes the host's docker0, the
// machine engine's bridge.) It is torn down when the test ends, whatever
// state it is in.
type Engine struct {
	Host   string // unix://<dir>/docker.sock
	Client *client.Client
	dir    string
	cgroup string
	bridge string
	pool   string // 10.240.N.: its networks' addresses, so teardown finds their bridges
	cmd    *exec.Cmd
	exited chan struct{}
}

// StartEngine starts a second dockerd for the test, or skips the test
// when this machine cannot (no dockerd, not root); with
// CURATE_REQUIRE_DOCKER=1 it fails instead.
func StartEngine(t testing.TB) *Engine {
	t.Helper()
	RequireDocker(t)
	fail := func(format string, args ...any) {
		t.Helper()
		msg := fmt.Sprintf(format, args...)
		if os.Getenv("CURATE_REQUIRE_DOCKER") == "1" {
			t.Fatal("CURATE_REQUIRE_DOCKER=1 but a second engine cannot start: " + msg)
		}
		t.Skip("a second Docker engine cannot start: " + msg)
	}
	dockerd, err := exec.LookPath("dockerd")
	if err != nil {
		fail("no dockerd on PATH (apt-get install docker.io)")
	}
	if os.Geteuid() != 0 {
		fail("dockerd needs root")
	}
	if _, err := exec.LookPath("ip"); err != nil {
		fail("no ip command (apt-get install iproute2)")
	}
	// A short path: a unix socket's path is limited to 108 bytes.
	dir, err := os.MkdirTemp("/tmp", "curate-engine-")
	if err != nil {
		t.Fatal(err)
	}
	e := &Engine{Host: "unix://" + filepath.Join(dir, "docker.sock"), dir: dir, cgroup: filepath.Base(dir), exited: make(chan struct{})}
	// Its own bridge, on a subnet no route of the machine uses.
	e.bridge = "cur" + strings.TrimPrefix(filepath.Base(dir), "curate-engine-")
	if len(e.bridge) > 15 {
		e.bridge = e.bridge[:15]
	}
	n := freeSubnet()
	if n == 0 {
		os.RemoveAll(dir)
		fail("no free 10.231.x.0/24 subnet for its bridge")
	}
	subnet := fmt.Sprintf("10.231.%d.1/24", n)
	e.pool = fmt.Sprintf("10.240.%d.", n)
	for _, args := range [][]string{{"link", "add", e.bridge, "type", "bridge"}, {"addr", "add", subnet, "dev", e.bridge}, {"link", "set", e.bridge, "up"}} {
		if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
			exec.Command("ip", "link", "del", e.bridge).Run()
			os.RemoveAll(dir)
			fail("ip %s: %v %s", strings.Join(args, " "), err, out)
		}
	}
	log, err := os.Create(filepath.Join(dir, "dockerd.log"))
	if err != nil {
		t.Fatal(err)
	}
	e.cmd = exec.Command(dockerd,
		"--data-root", filepath.Join(dir, "data"), "--exec-root", filepath.Join(dir, "exec"),
		"--pidfile", filepath.Join(dir, "docker.pid"), "-H", e.Host,
		// Networks curate makes on it (the egress network) come from a
		// pool of its own: a killed engine's network bridges stay in the
		// host's namespace, and from Docker's default pools they would
		// exhaust the machine engine's pools over many runs.
		"--default-address-pool", "base="+e.pool+"0/24,size=27",
		"--bridge="+e.bridge, "--iptables=false", "--ip6tables=false", "--ip-masq=false", "--cgroup-parent="+e.cgroup)
	e.cmd.Stdout, e.cmd.Stderr = log, log
	e.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := e.cmd.Start(); err != nil {
		log.Close()
		exec.Command("ip", "link", "del", e.bridge).Run()
		os.RemoveAll(dir)
		fail("start dockerd: %v", err)
	}
	go func() { e.cmd.Wait(); log.Close(); close(e.exited) }()
	t.Cleanup(e.teardown)
	if e.Client, err = validate.NewClient(e.Host); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_, err := e.Client.Ping(ctx)
		cancel()
		if err == nil {
			break
		}
		select {
		case <-e.exited:
			fail("dockerd exited: %s", e.logTail())
		default:
		}
		if time.Now().After(deadline) {
			fail("dockerd did not answer in 60 s: %v\n%s", err, e.logTail())
		}
		time.Sleep(100 * time.Millisecond)
	}
	return e
}

// BusyboxImageOn builds BusyboxImage's image (same tag) on this engine.
func (e *Engine) BusyboxImageOn(t testing.TB) string {
	t.Helper()
	dockerfile, bash, data := busyboxFiles(t)
	tag := "curate-test/busybox:" + hash(dockerfile, bash, string(data))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := buildBusybox(ctx, e.Client, tag, dockerfile, bash, data); err != nil {
		t.Fatalf("busybox image on %s: %v", e.Host, err)
	}
	return tag
}

// Kill stops the engine's daemon with sig (SIGKILL: it just stops
// answering; SIGTERM: it shuts down, stopping its containers) and waits
// for it to exit.
func (e *Engine) Kill(t testing.TB, sig syscall.Signal) {
	t.Helper()
	e.cmd.Process.Signal(sig)
	select {
	case <-e.exited:
	case <-time.After(60 * time.Second):
		t.Fatalf("dockerd %s did not exit on %v", e.Host, sig)
	}
}

func (e *Engine) logTail() string {
	data, _ := os.ReadFile(filepath.Join(e.dir, "dockerd.log"))
	return tail(string(data), 2000)
}

// teardown kills the daemon, its containerd, shims and container
// processes (all found by this engine's dir or cgroup), unmounts what it
// left mounted and removes its dirs.
func (e *Engine) teardown() {
	if e.Client != nil {
		e.Client.Close()
	}
	syscall.Kill(-e.cmd.Process.Pid, syscall.SIGKILL)
	select {
	case <-e.exited:
	case <-time.After(10 * time.Second):
	}
	for _, pid := range e.processes() {
		syscall.Kill(pid, syscall.SIGKILL)
	}
	time.Sleep(100 * time.Millisecond)
	hierarchies, _ := filepath.Glob("/sys/fs/cgroup/*/" + e.cgroup)
	if un, _ := filepath.Glob("/sys/fs/cgroup/" + e.cgroup); len(un) > 0 {
		hierarchies = append(hierarchies, un...)
	}
	for _, h := range hierarchies {
		subs, _ := filepath.Glob(filepath.Join(h, "*", "cgroup.procs"))
		for _, s := range subs {
			syscall.Rmdir(filepath.Dir(s))
		}
		syscall.Rmdir(h)
	}
	mounts := e.mounts()
	sort.Sort(sort.Reverse(sort.StringSlice(mounts))) // deepest first
	for _, m := range mounts {
		syscall.Unmount(m, syscall.MNT_DETACH)
	}
	os.RemoveAll(e.dir)
	exec.Command("ip", "link", "del", e.bridge).Run()
	for _, b := range bridgesIn(e.pool) {
		exec.Command("ip", "link", "del", b).Run()
	}
}

// freeSubnet picks N for a test engine's bridge (10.231.N.1/24) and
// network pool (10.240.N.0/24), both covered by no route of the machine.
func freeSubnet() int {
	out, _ := exec.Command("ip", "-4", "route", "show", "table", "all").Output()
	for n := 1 + os.Getpid()%200; n < 255; n++ {
		bridge, pool := fmt.Sprintf("10.231.%d.", n), fmt.Sprintf("10.240.%d.", n)
		if !bytes.Contains(out, []byte(bridge)) && !bytes.Contains(out, []byte(pool)) && !bytes.Contains(out, []byte("10.0.0.0/8")) &&
			!bytes.Contains(out, []byte("10.231.0.0/16")) && !bytes.Contains(out, []byte("10.240.0.0/16")) {
			return n
		}
	}
	return 0
}

// bridgesIn are the Docker network bridges (br-...) holding an address
// that starts with prefix.
func bridgesIn(prefix string) []string {
	out, _ := exec.Command("ip", "-o", "-4", "addr", "show").Output()
	var names []string
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) > 3 && strings.HasPrefix(f[1], "br-") && strings.HasPrefix(f[3], prefix) {
			names = append(names, f[1])
		}
	}
	return names
}

// processes are the pids whose command line names this engine's dir (its
// containerd and shims) or that live in its cgroup (its containers').
func (e *Engine) processes() []int {
	var out []int
	self := os.Getpid()
	procs, _ := filepath.Glob("/proc/[0-9]*")
	for _, p := range procs {
		pid, err := strconv.Atoi(filepath.Base(p))
		if err != nil || pid == self {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join(p, "cmdline"))
		cgroup, _ := os.ReadFile(filepath.Join(p, "cgroup"))
		if bytes.Contains(cmdline, []byte(e.dir)) || bytes.Contains(cgroup, []byte("/"+e.cgroup+"/")) {
			out = append(out, pid)
		}
	}
	return out
}

// mounts are the mount points under this engine's dir.
func (e *Engine) mounts() []string {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) > 4 && (fields[4] == e.dir || strings.HasPrefix(fields[4], e.dir+"/")) {
			out = append(out, fields[4])
		}
	}
	return out
}
