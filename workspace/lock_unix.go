//go:build unix

package workspace

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive lock on f; with try it fails at once when
// another process holds it. The lock dies with its process, which is how
// recovery tells a running import from a killed one.
func lockFile(f *os.File, try bool) error {
	how := syscall.LOCK_EX
	if try {
		how |= syscall.LOCK_NB
	}
	return syscall.Flock(int(f.Fd()), how)
}
