package harbor

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// deepTaskDir is a task whose task.toml nests a dotted table levels deep
// (two bytes a level), as an attacker writes it.
func deepTaskDir(t testing.TB, levels int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "deep")
	os.MkdirAll(dir, 0o755)
	doc := "schema_version = \"1.0\"\n\n[" + strings.Repeat("a.", levels) + "b]\nc = 1\n"
	os.WriteFile(filepath.Join(dir, "task.toml"), []byte(doc), 0o644)
	os.WriteFile(filepath.Join(dir, "instruction.md"), []byte("Fix it.\n"), 0o644)
	return dir
}

// allocatedBy is how many bytes f allocates.
func allocatedBy(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// A task.toml nested 15,000 levels deep (30 KB) is refused with its file,
// line and the depth allowed, and reading it costs little: flattening it
// used to rebuild the whole key at every level (240 MB for this file).
func TestDeepTaskTOMLRefused(t *testing.T) {
	dir := deepTaskDir(t, 15000)
	var err error
	alloc := allocatedBy(func() { _, err = Read(dir, Options{}) })
	want := filepath.Join(dir, "task.toml") + ":3:2: a.a.a."
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "nests more than 64 levels") {
		t.Errorf("err = %v, want it to start %q and name the depth", err, want)
	}
	if alloc > 100<<20 {
		t.Errorf("reading a 30 KB task.toml allocated %d MB", alloc>>20)
	}
}

// The attack file at its largest shape (100 KB, 50,000 levels; 2.6 GB
// before flattening was fixed): go test -bench DeepTaskTOML -benchmem
// ./pipeline/source/harbor. peak-MB is the process's peak RSS.
func BenchmarkImportDeepTaskTOML(b *testing.B) {
	dir := deepTaskDir(b, 50000)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Read(dir, Options{}); err == nil {
			b.Fatal("a 50,000-level task.toml was read")
		}
	}
	b.ReportMetric(float64(peakRSS())/(1<<20), "peak-MB")
}
