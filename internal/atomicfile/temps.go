package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// TempPattern is the os.CreateTemp / MkdirTemp pattern of a temporary
// beside path: ".NAME.tmp-PID-*". The writer's pid in the name lets a
// later writer tell a killed writer's leftovers from a running one's.
func TempPattern(path string) string {
	return fmt.Sprintf(".%s.tmp-%d-", filepath.Base(path), os.Getpid())
}

// RemoveDeadTemps removes the temporaries beside path whose writer is gone:
// ".NAME.tmp-PID-*" (and its ".old") for a pid that no longer runs, and
// ".NAME.tmp-DIGITS" of versions before the pid was in the name.
func RemoveDeadTemps(path string) {
	dir, prefix := filepath.Dir(path), "."+filepath.Base(path)+".tmp-"
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok {
			continue
		}
		pidText, _, _ := strings.Cut(strings.TrimSuffix(rest, ".old"), "-")
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid == os.Getpid() || processRuns(pid) {
			continue
		}
		os.RemoveAll(filepath.Join(dir, e.Name()))
	}
}
