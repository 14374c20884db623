package pipeline_test

import (
	"os/exec"
	"strings"
	"testing"
)

// Stages import only pipeline, their own helpers and internal/: never the
// layers above them (design.md, "Dependencies point one way").
func TestPipelineImportsNoUpperLayer(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Deps \" \"}}", "curate/pipeline/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	upper := []string{"curate/workspace", "curate/store", "curate/ui", "curate/app", "curate/cli"}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 10 {
		t.Fatalf("go list named %d packages under pipeline/", len(lines))
	}
	for _, line := range lines {
		fields := strings.Fields(line)
		pkg, deps := fields[0], fields[1:]
		for _, d := range deps {
			for _, u := range upper {
				if (d == u || strings.HasPrefix(d, u+"/")) {
					t.Errorf("%s imports %s (directly or through another package)", pkg, d)
				}
			}
		}
	}
}
