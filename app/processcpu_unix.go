//go:build unix

package app

import (
	"syscall"
	"time"
)

// processCPU is the CPU time curate's process and the child processes it
// waited for (git) have used so far, user and system.
func processCPU() (time.Duration, bool) {
	var total time.Duration
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var ru syscall.Rusage
		if syscall.Getrusage(who, &ru) != nil {
			return 0, false
		}
		total += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	return total, true
}
