package validate_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docker/docker/api/types/network"

	"curate/internal/testenv"
	"curate/pipeline/envgen"
	. "curate/pipeline/validate"
)

// canaryProbe fetches each URL through the proxy the environment names
// and directly, and prints what it got.
const canaryProbe = `import sys, urllib.request
gw = None
for line in open("/proc/net/route").read().splitlines()[1:]:
    f = line.split()
    if f[1] == "00000000":
        gw = ".".join(str(int(f[2][i:i+2], 16)) for i in (6, 4, 2, 0))
port = sys.argv[1]
urls = ["http://172.17.0.1:%s/" % port, "http://%s:%s/" % (gw, port)] + sys.argv[2:]
for u in urls:
    for mode, handler in (("proxy", urllib.request.ProxyHandler()), ("direct", urllib.request.ProxyHandler({}))):
        if mode == "direct" and "pypi" in u:
            continue
        try:
            body = urllib.request.build_opener(handler).open(u, timeout=3).read()
            print("GOT", mode, u, body[:60])
        except Exception as e:
            print("NOT", mode, u, e)
`

// canaryServer serves a secret on every address of the host, the way a
// developer's database or metadata service would listen.
func canaryServer(t *testing.T) (port int, secret string) {
	t.Helper()
	b := make([]byte, 12)
	rand.Read(b)
	secret = "canary-" + hex.EncodeToString(b)
	ln, err := net.Listen("tcp", ":0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, secret) })}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().(*net.TCPAddr).Port, secret
}

// A build RUN cannot read a secret from a service on the host's bridge
// address or the build network's gateway, directly or through the proxy,
// while it still downloads from PyPI through the proxy; the build log
// names what was reached and refused (issue 51: the build read it).
func TestBuildNetworkReachesOnlyRegistries(t *testing.T) {
	_, r := testValidator(t)
	port, secret := canaryServer(t)
	// The host's CA bundle: this machine's registries may be behind a
	// TLS-intercepting proxy (as builds trust it, envgen.Network).
	ca, err := os.ReadFile(envgen.SystemCABundle)
	if err != nil {
		t.Skipf("no CA bundle: %v", err)
	}
	script := fmt.Sprintf("SSL_CERT_FILE=/ca.crt python3 /probe.py %d https://pypi.org/simple/six/", port)
	dir := hostileBuildTask(t, testenv.BaseImage(t), "", script, map[string]string{"probe.py": canaryProbe, "ca.crt": string(ca)})
	var log strings.Builder
	if _, _, err := r.Image(context.Background(), dir, &log); err != nil {
		t.Fatalf("build: %v\n%s", err, log.String())
	}
	out := log.String()
	if strings.Contains(out, secret) {
		t.Errorf("a build RUN read the host's canary:\n%s", out)
	}
	if !strings.Contains(out, "GOT proxy https://pypi.org/simple/six/") {
		t.Errorf("a build RUN could not reach PyPI through the proxy:\n%s", out)
	}
	for _, want := range []string{"curate: network: build reached pypi.org", "curate: network: build refused 172.17.0.1"} {
		if !strings.Contains(out, want) {
			t.Errorf("build log lacks %q:\n%s", want, out)
		}
	}
}

// networkTask writes a task that asks for the network and whose test.sh
// runs the canary probe; its reward is 1 whatever the probe finds.
func networkTask(t *testing.T, from string, port int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "net")
	files := map[string]string{
		"task.toml":              "schema_version = \"1.0\"\n[task]\nname = \"fixtures/net\"\n[verifier]\ntimeout_sec = 60\n[environment]\nallow_internet = true\n",
		"instruction.md":         "Reach the network.\n",
		"environment/Dockerfile": "FROM " + from + "\n",
		"tests/probe.py":         canaryProbe,
		"tests/test.sh":          fmt.Sprintf("#!/bin/bash\npython3 /tests/probe.py %d\nmkdir -p /logs/verifier; echo 1 > /logs/verifier/reward.txt\n", port),
		"solution/solve.sh":      "#!/bin/bash\ntrue\n",
	}
	writeFiles(t, dir, files)
	return dir
}

// A task with allow_internet = true cannot read a secret from a service
// on the host's bridge address under the default task_network, and the
// run log says what the task got (issue 51: its container had the bridge).
func TestTaskNetworkDefaultRefusesTheHost(t *testing.T) {
	v, _ := testValidator(t)
	port, secret := canaryServer(t)
	run := validateOne(t, v, networkTask(t, testenv.BaseImage(t), port), ModeNop)
	log := logOf(t, run)
	if strings.Contains(log, secret) {
		t.Errorf("a task's test read the host's canary:\n%s", log)
	}
	if !strings.Contains(log, "NOT proxy http://172.17.0.1:") || !strings.Contains(log, "NOT direct http://172.17.0.1:") {
		t.Errorf("the probe did not run:\n%s", log)
	}
	if !strings.Contains(log, `curate: network: the task asks for the network; [docker] task_network = "allowlist"`) {
		t.Errorf("the run log does not say which network applied:\n%s", log)
	}
}

// The egress network and rules of a curate killed before it closed them
// are removed by the next one's first build with the network: this
// workspace's and a gone workspace's, never a live workspace's.
func TestStaleEgressNetworkRemoved(t *testing.T) {
	_, r := testValidator(t)
	ctx := context.Background()
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	stale := func(label, workspace string) (string, []string) {
		labels := r.Labels("egress", nil)
		labels[LabelWorkspace] = workspace
		name := fmt.Sprintf("curate-egress-%s-%d", label, dead.Process.Pid)
		created, err := r.Client().NetworkCreate(ctx, name, network.CreateOptions{Internal: true, Labels: labels})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Client().NetworkRemove(ctx, created.ID) })
		rule := []string{"INPUT", "-i", "br-" + created.ID[:12], "-j", "DROP"}
		if out, err := exec.Command("iptables", append([]string{"-I"}, rule...)...).CombinedOutput(); err != nil {
			t.Fatalf("iptables: %v: %s", err, out)
		}
		t.Cleanup(func() { exec.Command("iptables", append([]string{"-D"}, rule...)...).Run() })
		return created.ID, rule
	}
	ownID, ownRule := stale("own", r.Workspace())
	goneID, _ := stale("gone", filepath.Join(t.TempDir(), "deleted-workspace"))
	// A test's runner labels its networks with a name, not a folder
	// (found on a CI machine: "kube-test-TestTaskNetworkPolicy-14914" and
	// "test-gopath-29278" outlived their killed tests).
	namedID, _ := stale("named", "kube-test-"+t.Name())
	liveID, liveRule := stale("live", t.TempDir())
	dir := hostileBuildTask(t, testenv.BusyboxImage(t), "", "true", nil)
	if _, _, err := r.Image(ctx, dir, nil); err != nil {
		t.Fatal(err)
	}
	for what, id := range map[string]string{"this workspace's": ownID, "a deleted workspace's": goneID, "a test runner's": namedID} {
		if _, err := r.Client().NetworkInspect(ctx, id, network.InspectOptions{}); err == nil {
			t.Errorf("%s stale network is still there", what)
		}
	}
	if exec.Command("iptables", append([]string{"-C"}, ownRule...)...).Run() == nil {
		t.Errorf("the stale rule %v is still there", ownRule)
	}
	if _, err := r.Client().NetworkInspect(ctx, liveID, network.InspectOptions{}); err != nil {
		t.Errorf("an existing workspace's network was removed: %v", err)
	}
	if exec.Command("iptables", append([]string{"-C"}, liveRule...)...).Run() != nil {
		t.Errorf("an existing workspace's rule was removed")
	}
}
