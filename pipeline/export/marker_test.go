package export

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"curate/internal/atomicfile"
	"curate/internal/scratch"
)

func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var n []string
	for _, e := range entries {
		n = append(n, e.Name())
	}
	sort.Strings(n)
	return n
}

func TestHarborRefusesAForeignFolder(t *testing.T) {
	in := testInput(t, 2, true)
	out := t.TempDir()
	os.WriteFile(filepath.Join(out, "notes.txt"), []byte("mine"), 0o644)
	_, err := Write("harbor", out, in)
	if err == nil || !strings.Contains(err.Error(), "holds no earlier curate export") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("err = %v, want a one-line refusal", err)
	}
	if got := names(t, out); strings.Join(got, ",") != "notes.txt" {
		t.Errorf("folder now holds %v", got)
	}
}

func TestSingleFileRefusesToOverwriteAForeignFile(t *testing.T) {
	in := testInput(t, 2, false)
	out := t.TempDir()
	os.WriteFile(filepath.Join(out, CSVFile), []byte("mine"), 0o644)
	if _, err := Write("csv", out, in); err == nil || !strings.Contains(err.Error(), "curate did not write") {
		t.Fatalf("err = %v", err)
	}
	if data, _ := os.ReadFile(filepath.Join(out, CSVFile)); string(data) != "mine" {
		t.Errorf("the curator's file was overwritten: %q", data)
	}
}

// A dataset kept in a repository: the next export replaces the task dirs
// it wrote and keeps .git, README.md and the other formats' files.
func TestHarborReexportKeepsWhatCurateDidNotWrite(t *testing.T) {
	in := testInput(t, 3, true)
	out := filepath.Join(t.TempDir(), "dataset")
	if _, err := Write("harbor", out, in); err != nil {
		t.Fatal(err)
	}
	if _, err := Write("csv", out, in); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(out, ".git", "objects"), 0o755)
	os.WriteFile(filepath.Join(out, ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	os.WriteFile(filepath.Join(out, "README.md"), []byte("# my dataset\n"), 0o644)
	in.Selected = in.Selected[1:2]
	if _, err := Write("harbor", out, in); err != nil {
		t.Fatal(err)
	}
	want := []string{".curate-export", ".git", "README.md", DatasetFile, "org__repo-0001", RegistryFile, CSVFile}
	sort.Strings(want)
	if got := names(t, out); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("dataset holds %v, want %v", got, want)
	}
	if data, _ := os.ReadFile(filepath.Join(out, "README.md")); string(data) != "# my dataset\n" {
		t.Errorf("README.md = %q", data)
	}
	if data, _ := os.ReadFile(filepath.Join(out, ".git", "HEAD")); string(data) != "ref: refs/heads/main\n" {
		t.Errorf(".git/HEAD = %q", data)
	}
}

func TestMarkerLineErrorsNameFileAndLine(t *testing.T) {
	out := t.TempDir()
	os.WriteFile(filepath.Join(out, MarkerFile), []byte(markerHeader+"harbor ok\nharbor ../../etc\n"), 0o644)
	_, err := Write("csv", out, testInput(t, 1, false))
	if err == nil || !strings.Contains(err.Error(), MarkerFile+":4:") {
		t.Fatalf("err = %v", err)
	}
}

// An export killed after its plan was written is finished by Recover; one
// killed before leaves the folder as it was.
func TestRecoverFinishesACommittedExport(t *testing.T) {
	in := testInput(t, 3, true)
	out := filepath.Join(t.TempDir(), "dataset")
	if _, err := Write("harbor", out, in); err != nil {
		t.Fatal(err)
	}
	before := names(t, out)
	root := t.TempDir()
	// Stage a re-export of one task as WriteDir does, and "die" after
	// moving the first entry out.
	st, err := scratch.New(root, stagingKind)
	if err != nil {
		t.Fatal(err)
	}
	newDir := st.Join("new")
	in2 := *in
	in2.Selected = in.Selected[2:]
	stage := filepath.Join(t.TempDir(), "d")
	if _, err := Write("harbor", stage, &in2); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(stage, MarkerFile))
	if err := os.Rename(stage, newDir); err != nil {
		t.Fatal(err)
	}
	m, _, _ := readMarker(out)
	p := plan{Dest: out, Add: names(t, newDir), Marker: "harbor " + strings.Join(names(t, newDir), "\nharbor ") + "\n"}
	for n := range m {
		p.Remove = append(p.Remove, n)
	}
	data, _ := json.Marshal(p)
	atomicfile.WriteFile(st.Join(planFile), data, 0o644)
	os.MkdirAll(st.Join("old"), 0o755)
	os.Rename(filepath.Join(out, "org__repo-0000"), st.Join("old/org__repo-0000"))
	// A second, uncommitted staging: no plan.
	st2, _ := scratch.New(root, stagingKind)
	os.MkdirAll(st2.Join("new/x"), 0o755)
	// Their owners die.
	st.Release()
	st2.Release()
	n, err := scratch.Sweep(root, map[string]scratch.Recoverer{stagingKind: Recover})
	if err != nil || n != 2 {
		t.Fatalf("swept %d, err %v", n, err)
	}
	want := []string{MarkerFile, DatasetFile, "org__repo-0002", RegistryFile}
	sort.Strings(want)
	if got := names(t, out); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("after recovery %v, want %v (before: %v)", got, want, before)
	}
	if got := names(t, root); len(got) != 0 {
		t.Errorf("scratch root holds %v", got)
	}
}

// A relative destination works, and a plan always names an absolute one
// (Recover runs in another process, from another folder).
func TestRelativeDestination(t *testing.T) {
	in := testInput(t, 2, true)
	t.Chdir(t.TempDir())
	scratchRoot := t.TempDir()
	in.Scratch = scratchRoot
	if _, err := Write("harbor", "out", in); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join("out", MarkerFile)); err != nil {
		t.Fatal(err)
	}
	if err := Recover(t.TempDir()); err != nil { // no plan: nothing to do
		t.Fatal(err)
	}
	if left := names(t, scratchRoot); len(left) != 0 {
		t.Errorf("scratch root holds %v", left)
	}
}
