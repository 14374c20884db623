package validate

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/docker/docker/api/types/container"
)

// How a container's writable layer is capped at max_disk depends on the
// engine's storage driver:
//   - quota: the engine's own `--storage-opt size=` (btrfs, zfs,
//     devicemapper, windowsfilter; overlay2 only on xfs mounted with
//     pquota). Writes beyond it fail inside the container with ENOSPC.
//   - watchdog: every other driver (overlay2 on ext4, the common case).
//     The layer's size is polled while the run lasts; over the cap, the
//     container is killed and the run ends as disk_limit.
// An overlay2-on-xfs engine without pquota refuses the option: the runner
// then falls back to the watchdog for good.
//
// /tmp is a tmpfs whatever the driver, sized within the memory limit.

// Disk cap mechanisms, as DiskCap names them.
const (
	DiskQuota    = "quota"
	DiskWatchdog = "watchdog"
)

// diskPoll is how often the watchdog measures a running container's layer.
const diskPoll = 2 * time.Second

// diskState is what this runner knows of its engine's storage.
type diskState struct {
	mu      sync.Mutex
	driver  string
	backing string
	quota   bool
}

// Probe reads the engine's memory, processors and storage driver: the
// defaults of caps the workspace does not set, and the disk cap's
// mechanism.
func (d *DockerRunner) Probe(ctx context.Context) error {
	info, err := d.cli.Info(ctx)
	if err != nil {
		return infra("docker engine %s: info: %w", d.host, err)
	}
	d.defaultCaps = DefaultCaps(info.MemTotal>>20, info.NCPU)
	d.engineCPUs, d.engineMemMB = info.NCPU, info.MemTotal>>20
	backing := ""
	for _, kv := range info.DriverStatus {
		if kv[0] == "Backing Filesystem" {
			backing = kv[1]
		}
	}
	d.disk.mu.Lock()
	d.disk.driver, d.disk.backing = info.Driver, backing
	d.disk.quota = quotaDriver(info.Driver, backing)
	d.disk.mu.Unlock()
	return nil
}

// quotaDriver reports whether a storage driver takes a size per container.
func quotaDriver(driver, backing string) bool {
	switch driver {
	case "btrfs", "zfs", "devicemapper", "windowsfilter":
		return true
	case "overlay2":
		return backing == "xfs"
	}
	return false
}

// DiskCap names the mechanism that caps the writable layer on this
// engine, and the driver ("watchdog", "overlay2 on extfs").
func (d *DockerRunner) DiskCap() (mechanism, driver string) {
	d.disk.mu.Lock()
	defer d.disk.mu.Unlock()
	driver = d.disk.driver
	if d.disk.backing != "" {
		driver += " on " + d.disk.backing
	}
	if d.disk.quota {
		return DiskQuota, driver
	}
	return DiskWatchdog, driver
}

func (d *DockerRunner) diskQuota() bool {
	d.disk.mu.Lock()
	defer d.disk.mu.Unlock()
	return d.disk.quota
}

// quotaRefused reports an engine refusing --storage-opt size (overlay2 on
// xfs without pquota) and turns the quota off for this runner.
func (d *DockerRunner) quotaRefused(err error) bool {
	msg := strings.ToLower(err.Error())
	if !d.diskQuota() || !(strings.Contains(msg, "storage-opt") || strings.Contains(msg, "storage opt") || strings.Contains(msg, "quota")) {
		return false
	}
	d.disk.mu.Lock()
	d.disk.quota = false
	d.disk.mu.Unlock()
	return true
}

// watchDisk kills container id when its writable layer holds more than
// limitMB, polling until the returned stop is called; stop reports the
// size seen over the cap (0: never over).
func (d *DockerRunner) watchDisk(ctx context.Context, id string, limitMB int64) (stop func() int64) {
	ctx, cancel := context.WithCancel(ctx)
	var over int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(diskPoll)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			info, _, err := d.cli.ContainerInspectWithRaw(ctx, id, true)
			if err != nil || info.SizeRw == nil {
				continue
			}
			if mb := *info.SizeRw >> 20; mb > limitMB {
				over = mb
				kctx, kcancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
				_ = d.cli.ContainerKill(kctx, id, "KILL")
				kcancel()
				return
			}
		}
	}()
	return func() int64 {
		cancel()
		<-done
		return over
	}
}

// createContainer creates a run's container, without the disk quota when
// the engine refuses it.
//
// A stop (ctrl+c, SIGTERM, SIGHUP) does not cut the request short: the
// engine may finish a create whose caller gave up, leaving a container
// nobody removes; the caller removes what this returns.
func (d *DockerRunner) createContainer(ctx context.Context, cfg *container.Config, host *container.HostConfig) (container.CreateResponse, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Minute)
	defer cancel()
	created, err := d.cli.ContainerCreate(ctx, cfg, host, nil, nil, "")
	if err != nil && host.StorageOpt != nil && d.quotaRefused(err) {
		host.StorageOpt = nil
		created, err = d.cli.ContainerCreate(ctx, cfg, host, nil, nil, "")
	}
	return created, err
}
