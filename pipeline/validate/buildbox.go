package validate

import (
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/docker/docker/api/types/build"

	"curate/pipeline/envgen"
	"curate/pipeline/validate/egress"
)

// The box of an image build. A Dockerfile's RUN executes code from a
// repository nobody here wrote (setup.py, build.rs, postinstall), so each
// build's containers get the caps a run of the same task gets (caps.go):
// memory with no swap beyond it and CPUs through the legacy builder's own
// options, pids through a cgroup parent curate makes for the build with
// pids.max set (the builder has no pids option). What the legacy builder
// cannot do is said in the build log, never skipped silently: it takes no
// capability drop and refuses security options ("does not support setting
// security options on build"), so a RUN keeps Docker's default
// capabilities and may gain privileges through setuid binaries.

// buildSeq numbers the cgroup parents of one process's builds.
var buildSeq atomic.Int64

// engineCgroup is the engine's cgroup driver and version, read once.
type engineCgroup struct {
	once    sync.Once
	driver  string
	version string
	local   bool
}

// buildBox is what one build's containers are given.
type buildBox struct {
	lim     RunLimits
	parent  string // cgroup parent holding pids.max; "" = none
	cleanup func()
	network string             // "" = the engine's default
	args    map[string]*string // the proxy settings, as build args
}

// options sets the box's limits on a build's options.
func (b buildBox) options(o *build.ImageBuildOptions) {
	o.Memory = b.lim.MemoryMB << 20
	o.MemorySwap = o.Memory // no swap beyond the limit
	o.CPUPeriod = 100000
	o.CPUQuota = int64(b.lim.CPUs * float64(o.CPUPeriod))
	o.CgroupParent = b.parent
	o.NetworkMode = b.network
	o.BuildArgs = b.args
}

// buildNetwork puts a build that has the network (networkMode "") on the
// egress network, its proxy given as build args (Docker's predefined
// HTTP_PROXY and the like, kept out of the image's history). The returned
// func says in out which hosts the build reached and was refused.
func (d *DockerRunner) buildNetwork(ctx context.Context, box *buildBox, networkMode string, out io.Writer) func() {
	box.network = networkMode
	if networkMode != "" {
		return func() {}
	}
	if out == nil {
		out = io.Discard
	}
	e, err := d.egressNetwork(ctx)
	if err != nil {
		fmt.Fprintf(out, "curate: network: build egress is NOT filtered (%v): the engine's default network\n", err)
		return func() {}
	}
	tok := fmt.Sprintf("build-%d", buildSeq.Add(1))
	env, release, err := e.clientProxy(ctx, tok)
	if err != nil {
		// Still filtered, through the shared listener: only clients that
		// send the proxy URL's user name are then told apart.
		fmt.Fprintf(out, "curate: network: the build's own proxy port failed (%v): hosts reached without the proxy's user name are not listed\n", err)
		env, release = e.proxyEnv(tok), func() {}
	}
	box.network, box.args = e.network, map[string]*string{}
	for k, v := range env {
		box.args[k] = &v
	}
	fmt.Fprintf(out, "curate: network: build through the egress proxy (allowed: %s)\n", strings.Join(e.allow.Hosts(), ", "))
	cache := e.proxy.Cache()
	if cache != nil {
		u := egress.CacheURL
		box.args[envgen.PackageCacheArg] = &u
		fmt.Fprintf(out, "curate: network: packages through curate's package cache (%s)\n", cache.Dir())
	} else {
		fmt.Fprintf(out, "curate: network: no package cache: %s\n", e.noCache)
	}
	return func() {
		release()
		reached, refused := e.proxy.Take(tok)
		if cache != nil {
			fmt.Fprintln(out, cacheLine(cache.Take(tok)))
		}
		fmt.Fprintf(out, "curate: network: build reached %s\n", orNone(reached))
		if len(refused) > 0 {
			fmt.Fprintf(out, "curate: network: build refused %s (not allowed registries; [network] allow in curate.toml lists more)\n", strings.Join(refused, ", "))
		}
	}
}

// cacheLine says what a build's downloads through the package cache
// were: kept files served, files fetched (and kept), pages passed.
func cacheLine(s egress.CacheStats) string {
	line := fmt.Sprintf("curate: network: package cache: %d from the cache (%s), %d fetched from the registries (%s), %d index pages passed through",
		s.Hits, mbBytes(s.HitBytes), s.Fetched, mbBytes(s.FetchedBytes), s.Passed)
	var by []string
	for name, n := range s.Files {
		by = append(by, fmt.Sprintf("%s %d", name, n))
	}
	if len(by) > 0 {
		sort.Strings(by)
		line += "; files: " + strings.Join(by, ", ")
	}
	return line
}

func mbBytes(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/(1<<20)) }

func orNone(hosts []string) string {
	if len(hosts) == 0 {
		return "no host"
	}
	return strings.Join(hosts, ", ")
}

// buildBoxFor resolves the caps of a build for a task (cfg nil = the
// workspace's values) and says them in out, one "curate: cap:" line each.
func (d *DockerRunner) buildBoxFor(ctx context.Context, cfg *TaskConfig, out io.Writer) buildBox {
	if out == nil {
		out = io.Discard
	}
	lim, notes := d.Caps().Limits(cfg, d.limits)
	for _, n := range notes {
		fmt.Fprintln(out, strings.Replace(n, "the container gets", "the build gets", 1))
	}
	box := buildBox{lim: lim, cleanup: func() {}}
	parent, cleanup, err := d.pidsParent(ctx, lim.Pids)
	pids := strconv.FormatInt(lim.Pids, 10)
	if err != nil {
		pids = "not capped (" + err.Error() + ")"
	} else {
		box.parent, box.cleanup = parent, cleanup
	}
	fmt.Fprintf(out, "curate: cap: build: memory %s (no swap), cpus %s, pids %s; capabilities: Docker's defaults, no-new-privileges: not set (the legacy builder takes neither)\n",
		mb(lim.MemoryMB), num(lim.CPUs), pids)
	return box
}

// pidsParent makes a cgroup parent for one build with pids.max = pids
// (and where its CPU time is accounted) and returns the parent name the
// engine takes, and a cleanup that removes it. It needs the engine on
// this machine with the cgroupfs driver; otherwise an error says why the
// cap is not applied.
func (d *DockerRunner) pidsParent(ctx context.Context, pids int64) (string, func(), error) {
	if err := d.cgroupsHere(ctx); err != nil {
		return "", nil, err
	}
	name := fmt.Sprintf("curate-build-%d-%d", os.Getpid(), buildSeq.Add(1))
	cleanup, err := d.makeParent(name, pids)
	if err != nil {
		return "", nil, err
	}
	return "/" + name, cleanup, nil
}
