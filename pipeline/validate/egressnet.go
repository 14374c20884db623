package validate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/network"

	"curate/pipeline/validate/egress"
)

// The box's network. A build (and, under task_network = "allowlist", a
// task with network access) runs on an internal Docker network: no route
// out of it but to the host. On the host, curate's egress proxy listens on
// that network's gateway address, and an iptables INPUT rule drops every
// other packet from the network's bridge, so the host's services (on the
// gateway, on 172.17.0.1, anywhere) are out of reach: an internal network
// alone still reaches every port of the host through its gateway.

// egressBox is the running proxy and the network it serves.
type egressBox struct {
	once    sync.Once
	err     error
	network string // Docker network name
	proxy   *egress.Proxy
	rules   [][]string // iptables rules added, to delete on Close
	netID   string
	bridge  string // the network's bridge on the host
	mu      sync.Mutex
	clients map[string][]string // a client listener's accept rule, by token
	allow   *egress.Allowlist
	list    func() (*egress.Allowlist, error) // SetEgress
	cache   func() (*egress.Cache, error)     // SetPackageCache
	noCache string                            // why builds go without the cache
}

// SetPackageCache sets how to make the package cache builds install
// through (nil, or a nil cache: none), called when the proxy first starts.
func (d *DockerRunner) SetPackageCache(cache func() (*egress.Cache, error)) { d.egress.cache = cache }

// SetEgress sets how to make the allowlist builds and allowlisted tasks
// get (the default registries, the registry URLs builds are given, and
// [network] allow), called when the proxy first starts: reading the
// machine's registry settings takes seconds. nil = egress.Registries.
func (d *DockerRunner) SetEgress(list func() (*egress.Allowlist, error)) { d.egress.list = list }

// egressNetwork starts the proxy and its network on first use; the error
// says why builds cannot be filtered (the engine is not on this machine,
// no iptables).
func (d *DockerRunner) egressNetwork(ctx context.Context) (*egressBox, error) {
	e := &d.egress
	e.once.Do(func() { e.err = d.startEgress(ctx, e) })
	return e, e.err
}

func (d *DockerRunner) startEgress(ctx context.Context, e *egressBox) error {
	if !strings.HasPrefix(d.host, "unix://") && !strings.HasPrefix(d.host, "/") {
		return fmt.Errorf("the engine %s is not on this machine", d.host)
	}
	if _, err := exec.LookPath("iptables"); err != nil {
		return fmt.Errorf("no iptables on this machine: %w", err)
	}
	list := e.list
	if list == nil {
		list = func() (*egress.Allowlist, error) { return egress.NewAllowlist(egress.Registries, nil, nil) }
	}
	a, err := list()
	if err != nil {
		return err
	}
	e.allow = a
	d.removeStaleEgress(ctx)
	h := sha256.Sum256([]byte(d.workspace))
	e.network = fmt.Sprintf("curate-egress-%s-%d", hex.EncodeToString(h[:])[:8], os.Getpid())
	created, err := d.cli.NetworkCreate(ctx, e.network, network.CreateOptions{
		Driver: "bridge", Internal: true, Labels: d.Labels("egress", nil),
	})
	if err != nil {
		return fmt.Errorf("create network %s: %w", e.network, err)
	}
	e.netID = created.ID
	info, err := d.cli.NetworkInspect(ctx, created.ID, network.InspectOptions{})
	if err != nil || len(info.IPAM.Config) == 0 || info.IPAM.Config[0].Gateway == "" {
		d.closeEgress()
		return fmt.Errorf("network %s has no gateway: %v", e.network, err)
	}
	gw := info.IPAM.Config[0].Gateway
	bridge := "br-" + created.ID[:12]
	e.bridge, e.clients = bridge, map[string][]string{}
	if e.proxy, err = egress.Start(net.JoinHostPort(gw, "0"), e.allow); err != nil {
		d.closeEgress()
		return err
	}
	e.noCache = "[network] package_cache = \"off\""
	if e.cache != nil {
		switch c, err := e.cache(); {
		case err != nil:
			e.noCache = err.Error()
		case c != nil:
			e.proxy.SetCache(c)
			e.noCache = ""
		}
	}
	_, port, _ := net.SplitHostPort(e.proxy.Addr())
	// Inserted in reverse: the accept of the proxy's port first, then the drop.
	for _, rule := range [][]string{
		{"INPUT", "-i", bridge, "-j", "DROP"},
		{"INPUT", "-i", bridge, "-p", "tcp", "-d", gw, "--dport", port, "-j", "ACCEPT"},
	} {
		if out, err := exec.CommandContext(ctx, "iptables", append([]string{"-I"}, rule...)...).CombinedOutput(); err != nil {
			d.closeEgress()
			return fmt.Errorf("iptables -I %s: %v: %s", strings.Join(rule, " "), err, strings.TrimSpace(string(out)))
		}
		e.rules = append(e.rules, rule)
	}
	return nil
}

// clientProxy opens a proxy listener of the client's own (egress.Proxy
// Listen) and lets the network reach its port, so what the client reached
// is known whatever credentials it sends: a JVM sends none. The returned
// environment sends the client through it; release closes it.
func (e *egressBox) clientProxy(ctx context.Context, token string) (env map[string]string, release func(), err error) {
	addr, closeListener, err := e.proxy.Listen(token)
	if err != nil {
		return nil, nil, err
	}
	host, port, _ := net.SplitHostPort(addr)
	rule := []string{"INPUT", "-i", e.bridge, "-p", "tcp", "-d", host, "--dport", port, "-j", "ACCEPT"}
	if out, err := exec.CommandContext(ctx, "iptables", append([]string{"-I"}, rule...)...).CombinedOutput(); err != nil {
		closeListener()
		return nil, nil, fmt.Errorf("iptables -I %s: %v: %s", strings.Join(rule, " "), err, strings.TrimSpace(string(out)))
	}
	e.mu.Lock()
	e.clients[token] = rule
	e.mu.Unlock()
	release = func() {
		e.mu.Lock()
		defer e.mu.Unlock()
		if r, ok := e.clients[token]; ok {
			exec.Command("iptables", append([]string{"-D"}, r...)...).Run()
			delete(e.clients, token)
		}
		closeListener()
	}
	return proxyVars("http://" + addr), release, nil
}

// proxyURL is the proxy's address for a client token (with a password:
// some clients send credentials only when both are there).
func (e *egressBox) proxyURL(token string) string {
	return "http://" + token + ":x@" + e.proxy.Addr()
}

// proxyEnv is the environment that sends a client through the proxy.
func (e *egressBox) proxyEnv(token string) map[string]string {
	return proxyVars(e.proxyURL(token))
}

// proxyVars are the variables that send a client through proxy u.
func proxyVars(u string) map[string]string {
	return map[string]string{
		"HTTP_PROXY": u, "HTTPS_PROXY": u, "http_proxy": u, "https_proxy": u,
		"NO_PROXY": "localhost,127.0.0.1,::1", "no_proxy": "localhost,127.0.0.1,::1",
	}
}

// closeEgress stops the proxy and removes its rules and network.
func (d *DockerRunner) closeEgress() {
	e := &d.egress
	for i := len(e.rules) - 1; i >= 0; i-- {
		exec.Command("iptables", append([]string{"-D"}, e.rules[i]...)...).Run()
	}
	e.rules = nil
	e.mu.Lock()
	for tok, r := range e.clients {
		exec.Command("iptables", append([]string{"-D"}, r...)...).Run()
		delete(e.clients, tok)
	}
	e.mu.Unlock()
	if e.proxy != nil {
		e.proxy.Close()
		e.proxy = nil
	}
	if e.netID != "" {
		d.cli.NetworkRemove(context.Background(), e.netID)
		e.netID = ""
	}
}

// removeStaleEgress removes egress networks, and their iptables rules,
// whose curate process is gone (killed before Close): this workspace's,
// and those of workspaces whose folder is gone (a test's, a deleted one)
// or that name no folder (a test's runner, labelled with its test's name),
// which no other curate would ever clean.
func (d *DockerRunner) removeStaleEgress(ctx context.Context) {
	mine := filters.NewArgs(filters.Arg("label", LabelManaged+"=true"), filters.Arg("label", LabelKind+"=egress"))
	nets, err := d.cli.NetworkList(ctx, network.ListOptions{Filters: mine})
	if err != nil {
		return
	}
	for _, n := range nets {
		if ws := n.Labels[LabelWorkspace]; ws != d.workspace && filepath.IsAbs(ws) {
			if _, err := os.Stat(ws); err == nil {
				continue // another workspace's, cleaned by its own curate
			}
		}
		i := strings.LastIndexByte(n.Name, '-')
		pid, err := strconv.Atoi(n.Name[i+1:])
		if err != nil || pid <= 0 || syscall.Kill(pid, 0) != syscall.ESRCH {
			continue // a live curate's (EPERM: another user's, alive too)
		}
		bridge := "br-" + n.ID[:12]
		if rules, err := exec.CommandContext(ctx, "iptables", "-S", "INPUT").Output(); err == nil {
			for _, rule := range strings.Split(string(rules), "\n") {
				if f := strings.Fields(rule); len(f) > 3 && f[0] == "-A" && strings.Contains(rule, " -i "+bridge+" ") {
					exec.CommandContext(ctx, "iptables", append([]string{"-D"}, f[1:]...)...).Run()
				}
			}
		}
		d.cli.NetworkRemove(ctx, n.ID)
	}
}
