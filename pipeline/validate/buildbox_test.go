package validate_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"curate/internal/testenv"
	. "curate/pipeline/validate"
)

// writeFiles writes files (path relative to dir: text) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// hostileBuildTask writes a task whose Dockerfile RUN is the given shell
// script, with task.toml's [environment] lines env and files beside the
// Dockerfile (copied to / before the RUN).
func hostileBuildTask(t *testing.T, from, env, script string, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "hostile")
	df := "FROM " + from + "\n"
	all := map[string]string{"task.toml": "[environment]\n" + env + "\n"}
	for name, text := range files {
		all["environment/"+name] = text
		df += "COPY " + name + " /" + name + "\n"
	}
	all["environment/Dockerfile"] = df + "RUN " + script + "\n"
	writeFiles(t, dir, all)
	return dir
}

// A Dockerfile RUN of a task asking for 64 MB, 0.5 CPUs and 32 pids may
// not allocate 1 GiB nor hold 300 processes, and the build log says the
// caps (issue 51: the build had no limit at all).
func TestBuildIsCapped(t *testing.T) {
	_, r := testValidator(t)
	r.SetCaps(Caps{Pids: 128})
	// The quota is read first: once the sleeps hold the pids, nothing forks.
	script := `python3 -c 'b = b"x" * (1 << 30); print("ALLOC" "-OK")' || echo "ALLOC-""FAILED"; ` +
		`echo "QUOTA=$(cat /sys/fs/cgroup/cpu/cpu.cfs_quota_us 2>/dev/null || cut -d' ' -f1 /sys/fs/cgroup/cpu.max)"; ` +
		`echo "PIDS=$( (for i in $(seq 300); do sleep 10 >/dev/null & echo forked; done) 2>/dev/null | grep -c forked)"; true`
	dir := hostileBuildTask(t, testenv.BaseImage(t), "memory_mb = 64\ncpus = 0.5\npids_limit = 32", script, nil)
	var log strings.Builder
	if _, _, err := r.Image(context.Background(), dir, &log); err != nil {
		t.Fatalf("build: %v\n%s", err, log.String())
	}
	out := log.String()
	if strings.Contains(out, "ALLOC-OK") || !strings.Contains(out, "ALLOC-FAILED") {
		t.Errorf("a build RUN allocated 1 GiB under memory_mb = 64:\n%s", out)
	}
	m := regexp.MustCompile(`PIDS=(\d+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no process count in the build log:\n%s", out)
	}
	if n, _ := strconv.Atoi(m[1]); n > 32 {
		t.Errorf("a build RUN held %d processes under pids_limit = 32:\n%s", n, out)
	}
	if !strings.Contains(out, "QUOTA=50000") {
		t.Errorf("a build RUN had no CPU quota of 0.5 CPUs:\n%s", out)
	}
	if !strings.Contains(out, "curate: cap: build: memory 64 MB (no swap), cpus 0.5, pids 32;") {
		t.Errorf("the build log does not say the caps:\n%s", out)
	}
}
