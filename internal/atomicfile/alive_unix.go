//go:build unix

package atomicfile

import (
	"errors"
	"syscall"
)

// processRuns reports whether pid is a live process.
func processRuns(pid int) bool {
	if pid <= 0 || pid > 1<<22 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
