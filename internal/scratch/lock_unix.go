//go:build unix

package scratch

import (
	"fmt"
	"os"
	"strings"
	"syscall"
)

// lock takes an exclusive lock on f (at once or not at all with try); it
// dies with the process, which is how Sweep tells a dead owner.
func lock(f *os.File, try bool) error {
	how := syscall.LOCK_EX
	if try {
		how |= syscall.LOCK_NB
	}
	return syscall.Flock(int(f.Fd()), how)
}

// startTime is the process's start in clock ticks since boot (field 22 of
// /proc/PID/stat), which with the pid names one process; "" elsewhere.
func startTime(pid int) string {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return ""
	}
	s := string(data)
	if i := strings.LastIndexByte(s, ')'); i >= 0 {
		if f := strings.Fields(s[i+1:]); len(f) > 19 {
			return f[19]
		}
	}
	return ""
}
