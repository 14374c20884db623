package scratch

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Sweep removes a dead owner's folder (after its kind's recoverer ran),
// keeps a live owner's, and never touches what is not a scratch folder.
func TestSweepTellsDeadOwnersFromLiveOnes(t *testing.T) {
	root := t.TempDir()
	live, err := New(root, "build")
	if err != nil {
		t.Fatal(err)
	}
	defer live.Remove()
	dead, err := New(root, "export")
	if err != nil {
		t.Fatal(err)
	}
	dead.Release() // as a killed process's lock goes
	noOwner := filepath.Join(root, "mirror-123")
	os.Mkdir(noOwner, 0o755) // killed before its owner file was written
	foreign := filepath.Join(root, "notes")
	os.Mkdir(foreign, 0o755)
	owner, _ := os.ReadFile(live.Join(OwnerFile))
	if f := strings.Fields(string(owner)); len(f) != 2 || f[0] != strconv.Itoa(os.Getpid()) || f[1] == "" {
		t.Errorf("owner file %q: want pid and start time", owner)
	}
	var recovered []string
	kinds := map[string]Recoverer{"build": nil, "mirror": nil, "export": func(p string) error {
		recovered = append(recovered, p)
		return nil
	}}
	n, err := Sweep(root, kinds)
	if err != nil || n != 2 {
		t.Fatalf("swept %d, %v; want the dead owner's and the ownerless folder", n, err)
	}
	if len(recovered) != 1 || recovered[0] != dead.Path {
		t.Errorf("recovered %v", recovered)
	}
	for _, p := range []string{live.Path, foreign} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s went: %v", p, err)
		}
	}
	for _, p := range []string{dead.Path, noOwner} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s stayed", p)
		}
	}
}
