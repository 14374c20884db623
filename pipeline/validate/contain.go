package validate

import (
	"context"
	"fmt"

	"github.com/docker/docker/api/types/container"
)

// The containment model of a validation container. A test suite is code
// from a repository nobody here wrote, so its container gets:
//   - no network unless task.toml asks for it ("public"), and then what
//     [docker] task_network allows (tasknet.go: by default the egress
//     proxy's registries only);
//   - memory and CPU limits: the task's own ([environment] memory_mb or
//     memory, cpus), else the workspace's ([docker] memory, cpus), else
//     DefaultLimits, each clamped to the workspace's caps (caps.go); swap is not allowed beyond the memory limit, so a
//     suite that allocates without bound is stopped by the kernel's OOM
//     killer inside the container (outcome "oom"), not by the machine;
//   - a pids limit (clamped too), no-new-privileges, never privileged;
//   - a cap on the writable layer (diskcap.go): the engine's quota where
//     its storage driver has one, else a watchdog;
//   - every capability dropped except KeptCaps;
//   - IPv6 on the loopback interface (::1), as on the machines a
//     project's CI runs on: Docker turns IPv6 off in containers, even on
//     lo, and a network library's tests that bind ::1 failed in both
//     states (a DNS resolver's 397 IPv6 cases). No route goes with it;
//   - a tmpfs /tmp (exec allowed: go test and others run binaries from
//     it), its size counted against the memory limit; it takes the mode
//     of the image's /tmp (1777 in Debian-based images);
//   - the user: task.toml's [verifier] user, else the image's USER; an
//     image that would run as root runs as [docker] user when the
//     workspace sets one (HOME=/tmp then), else keeps root, because tests
//     write into the repository, caches and $HOME the image made as root;
//     root there has only the capabilities above. Task files reach a
//     non-root container through the engine's copy API, with /logs
//     writable by any user.

// Limits are a container's memory and CPU bounds.
type Limits struct {
	MemoryMB int64
	CPUs     float64
}

// DefaultLimits bound containers when neither the task nor the workspace
// says: enough for real suites (pytest, go test, cargo test of mid-size
// repositories), small enough that two at once leave a CI machine usable.
var DefaultLimits = Limits{MemoryMB: 4096, CPUs: 2}

// KeptCaps are the capabilities a test suite running as root needs; every
// other one (Docker's defaults MKNOD, NET_RAW, SETFCAP, SETPCAP,
// SYS_CHROOT, AUDIT_WRITE, and all the rest) is dropped.
var KeptCaps = []string{
	"CHOWN",            // tar, pip, npm and cargo set owners of what they unpack
	"DAC_OVERRIDE",     // root writing files the image gave to another user
	"FOWNER",           // chmod/utime on such files (git checkout, build tools)
	"FSETID",           // keep setgid bits on directories the image made
	"SETUID", "SETGID", // suites that drop to an unprivileged user (su, runuser, postgres tests)
	"KILL",             // stopping child processes run as another user
	"NET_BIND_SERVICE", // test servers on ports below 1024 (on loopback when offline)
}

// SetUser makes containers of images that would run as root run as user
// instead, unless task.toml's [verifier] user names one ([docker] user).
func (d *DockerRunner) SetUser(user string) { d.user = user }

// SetLimits sets the bounds of containers whose task.toml sets none.
func (d *DockerRunner) SetLimits(l Limits) { d.limits = l }

// SetCaps sets the workspace's caps over every task's values; zero fields
// take DefaultCaps of the engine (Probe).
func (d *DockerRunner) SetCaps(c Caps) { d.caps = c }

// Caps are the caps in force: the workspace's, else the engine's defaults.
func (d *DockerRunner) Caps() Caps { return d.caps.Or(d.defaultCaps) }

// CapNotes says, one log line each, which of a task's values a cap lowers.
func (d *DockerRunner) CapNotes(cfg *TaskConfig) []string {
	_, notes := d.Caps().Limits(cfg, d.limits)
	if n := d.networkNote(cfg); n != "" {
		notes = append(notes, n)
	}
	return notes
}

// ipv6Loopback is the sysctl that turns IPv6 on for the container's lo.
const ipv6Loopback = "net.ipv6.conf.lo.disable_ipv6"

// hostConfig is the contained host configuration of one run.
func (d *DockerRunner) hostConfig(cfg *TaskConfig) *container.HostConfig {
	lim, _ := d.Caps().Limits(cfg, d.limits)
	network := container.NetworkMode("none")
	if cfg.NetworkMode == "public" {
		network = "bridge"
	}
	pids := lim.Pids
	mem := lim.MemoryMB << 20
	host := &container.HostConfig{
		NetworkMode: network,
		Privileged:  false,
		SecurityOpt: []string{"no-new-privileges"},
		CapDrop:     []string{"ALL"},
		CapAdd:      KeptCaps,
		Tmpfs:       map[string]string{"/tmp": fmt.Sprintf("rw,nosuid,nodev,exec,size=%dm,mode=1777", max(lim.MemoryMB/2, 64))},
		LogConfig:   container.LogConfig{Type: "none"}, // output is streamed, never stored by the engine
		Resources: container.Resources{
			NanoCPUs:   int64(lim.CPUs * 1e9),
			Memory:     mem,
			MemorySwap: mem, // no swap beyond the limit
			PidsLimit:  &pids,
		},
	}
	if !d.noIPv6.Load() {
		host.Sysctls = map[string]string{ipv6Loopback: "0"}
	}
	if d.diskQuota() {
		host.StorageOpt = map[string]string{"size": fmt.Sprintf("%dM", lim.DiskMB)}
	}
	return host
}

// oomKilled reports whether the kernel's OOM killer stopped a process of
// the (exited, not yet removed) container.
func (d *DockerRunner) oomKilled(ctx context.Context, id string) bool {
	info, err := d.cli.ContainerInspect(ctx, id)
	return err == nil && info.State != nil && info.State.OOMKilled
}

// memoryLimitMB is the limit hostConfig gave a task, for messages.
func (d *DockerRunner) memoryLimitMB(cfg *TaskConfig) int64 {
	return d.hostConfig(cfg).Memory >> 20
}
