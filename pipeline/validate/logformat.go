package validate

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
)

// logFormat is the log format a task's test.sh declares in its header
// ("# curate-log-format: vitest", written by curate build), so gold
// parses the log with that runner's parser; "" when it declares none.
func logFormat(taskDir string) string {
	f, err := os.Open(filepath.Join(taskDir, "tests", "test.sh"))
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for i := 0; i < 10 && sc.Scan(); i++ {
		if v, ok := strings.CutPrefix(sc.Text(), "# curate-log-format:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
