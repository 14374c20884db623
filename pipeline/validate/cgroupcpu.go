package validate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// The cgroups curate makes for builds and runs on an engine of this
// machine with the cgroupfs driver: the engine puts the containers of one
// build (or one run) under a parent curate names, so pids.max caps them
// all and the kernel's CPU accounting of the parent, which keeps what its
// children used after they are gone, is the CPU time of that build or run.

// buildCgroupRoot is where the parents are made, on the cgroup v1
// hierarchies (pids, cpuacct) or the cgroup v2 unified one.
const buildCgroupRoot = "/sys/fs/cgroup"

// cgroupsHere says why curate cannot make cgroups for the engine's
// containers (nil when it can): the engine must be on this machine and
// use the cgroupfs driver.
func (d *DockerRunner) cgroupsHere(ctx context.Context) error {
	cg := &d.cgroup
	cg.once.Do(func() {
		info, err := d.cli.Info(ctx)
		if err == nil {
			cg.driver, cg.version = info.CgroupDriver, info.CgroupVersion
		}
		cg.local = strings.HasPrefix(d.host, "unix://") || strings.HasPrefix(d.host, "/")
	})
	switch {
	case !cg.local:
		return fmt.Errorf("the engine %s is not on this machine", d.host)
	case cg.driver != "cgroupfs":
		return fmt.Errorf("the engine's cgroup driver is %q, not cgroupfs", cg.driver)
	}
	return nil
}

// makeParent makes the cgroup name under which the engine puts
// containers (CgroupParent "/"+name): where their CPU is accounted, and
// with pids.max = pids when pids > 0. cleanup removes it once its
// containers are gone. On cgroup v1 the accounting folder is made too
// (the engine would make it, but then a build with no RUN step leaves
// nothing to read); when only it fails, the pids cap still stands.
func (d *DockerRunner) makeParent(name string, pids int64) (cleanup func(), err error) {
	cleanup = func() { removeCgroups(name) }
	fail := func(err error) (func(), error) {
		cleanup()
		return nil, err
	}
	pidsDir := filepath.Join(buildCgroupRoot, name)
	if d.cgroup.version != "2" {
		pidsDir = filepath.Join(buildCgroupRoot, "pids", name)
		cpuDir := filepath.Join(buildCgroupRoot, "cpuacct", name)
		if err := os.Mkdir(cpuDir, 0o755); err != nil && pids <= 0 {
			return fail(fmt.Errorf("make cgroup %s: %w", cpuDir, err))
		}
		if pids <= 0 {
			return cleanup, nil
		}
	}
	if err := os.Mkdir(pidsDir, 0o755); err != nil {
		return fail(fmt.Errorf("make cgroup %s: %w", pidsDir, err))
	}
	if pids > 0 {
		if err := os.WriteFile(filepath.Join(pidsDir, "pids.max"), []byte(strconv.FormatInt(pids, 10)), 0o644); err != nil {
			return fail(fmt.Errorf("set pids.max in %s: %w", pidsDir, err))
		}
	}
	return cleanup, nil
}

// parentCPU is the CPU time the kernel charged to the parent name: every
// process of every container the engine put under it.
func (d *DockerRunner) parentCPU(name string) (time.Duration, error) {
	if d.cgroup.version == "2" {
		path := filepath.Join(buildCgroupRoot, name, "cpu.stat")
		data, err := os.ReadFile(path)
		if err != nil {
			return 0, err
		}
		for _, line := range strings.Split(string(data), "\n") {
			if v, ok := strings.CutPrefix(line, "usage_usec "); ok {
				us, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
				if err != nil {
					return 0, fmt.Errorf("%s: usage_usec %q: %w", path, v, err)
				}
				return time.Duration(us) * time.Microsecond, nil
			}
		}
		return 0, fmt.Errorf("%s: no usage_usec line", path)
	}
	path := filepath.Join(buildCgroupRoot, "cpuacct", name, "cpuacct.usage")
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	ns, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	return time.Duration(ns), nil
}

// removeCgroups removes a parent from every hierarchy the engine made it
// in (on cgroup v1 one per controller). A parent still busy stays: it is
// empty once its containers are gone.
func removeCgroups(name string) {
	dirs, _ := filepath.Glob(filepath.Join(buildCgroupRoot, "*", name))
	dirs = append(dirs, filepath.Join(buildCgroupRoot, name))
	for _, dir := range dirs {
		os.Remove(dir)
	}
}

// cpuParent is the cgroup parent of one run's container, for its CPU time.
type cpuParent struct {
	name    string // "" = none: CPU not measured
	cleanup func()
}

// runParent makes the parent of one run's container; none when the
// engine's cgroups are not curate's to make (CPU is then not measured).
func (d *DockerRunner) runParent(ctx context.Context) cpuParent {
	if d.cgroupsHere(ctx) != nil {
		return cpuParent{cleanup: func() {}}
	}
	name := fmt.Sprintf("curate-run-%d-%d", os.Getpid(), buildSeq.Add(1))
	cleanup, err := d.makeParent(name, 0)
	if err != nil {
		return cpuParent{cleanup: func() {}}
	}
	return cpuParent{name: name, cleanup: cleanup}
}

// cgroupParent is the value of HostConfig.CgroupParent ("" = the engine's).
func (p cpuParent) cgroupParent() string {
	if p.name == "" {
		return ""
	}
	return "/" + p.name
}

// doneParent reads the CPU time of the parent's containers (all gone by now)
// into res and removes the parent.
func (d *DockerRunner) doneParent(p cpuParent, res *ExecResult) {
	defer p.cleanup()
	if p.name == "" || res == nil {
		return
	}
	if cpu, err := d.parentCPU(p.name); err == nil {
		res.CPU, res.CPUMeasured = cpu, true
	}
}
