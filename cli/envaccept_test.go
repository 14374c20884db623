package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"curate/internal/fixtures"
	"curate/internal/testenv"
)

// TestEnvCheckNamesFailuresAndAcceptMirrors: a repository whose suite has
// tests that fail on its snapshot for the environment's sake (one needs
// the network, one calls an API the code never had) fails its check. The
// check names each failing test with its first error line and offers to
// accept them; once accepted, a PR whose test file holds none of them
// mirrors onto the snapshot and one whose test file holds one builds at
// its merge commit, saying which. Before, the check said only "failed
// 6/9" and every PR built at its merge commit, as a C codec library's
// did after its 26-minute check failed with 7 of 10 suites passing.
func TestEnvCheckNamesFailuresAndAcceptMirrors(t *testing.T) {
	base := testenv.BaseImage(t)
	dir := t.TempDir()
	py, err := fixtures.PythonRepo(filepath.Join(dir, "calc"))
	if err != nil {
		t.Fatal(err)
	}
	addOnMain(t, py.Path, map[string]string{
		"tests/test_env.py": "import socket\n\n\ndef test_needs_network():\n    socket.create_connection(('example.org', 80), timeout=2)\n\n\n" +
			"def test_needs_network_too():\n    socket.create_connection(('example.org', 443), timeout=2)\n",
		"tests/test_percent.py": readFile(t, filepath.Join(py.Path, "tests/test_percent.py")) +
			"\n\ndef test_percent_locale():\n    assert fmt_percent(0.5, locale='de') == '50 %'\n",
	})
	// scope = "all": tests/test_env.py is no PR's, and the default scope
	// runs only the test files the mined PRs change.
	ws := checkWorkspace(t, base, "scope = \"all\"\n")
	code, out, errs := mineAndCheck(t, ws, py.Path)
	if code != 1 {
		t.Fatalf("env check: exit %d, want 1 (a failed check)\n%s%s", code, out, errs)
	}
	for _, want := range []string{
		"failed 6/9",
		"FAIL tests/test_env.py::test_needs_network: ",
		"FAIL tests/test_percent.py::test_percent_locale: TypeError",
		"curate env accept acme/calc",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("env check output lacks %q:\n%s", want, out)
		}
	}
	if code, out, errs := cli(t, "-w", ws, "env", "accept", "acme/calc"); code != 0 || !strings.Contains(out, "3 failing tests") {
		t.Fatalf("env accept: %d\n%s%s", code, out, errs)
	}
	// The record keeps each whole first error line.
	if _, out, _ := cli(t, "-w", ws, "repo", "show", "acme/calc", "--json"); !strings.Contains(out, "TypeError: fmt_percent() got an unexpected keyword argument 'locale'") ||
		!strings.Contains(out, `"failures_accepted": true`) {
		t.Errorf("repo show --json lacks the first error line or the acceptance:\n%s", out)
	}
	code, out, errs = cli(t, "-w", ws, "build", "acme__calc-1", "acme__calc-2")
	if code != 0 {
		t.Fatalf("build: %d\n%s%s", code, out, errs)
	}
	lines := strings.Split(out, "\n")
	for _, c := range []struct{ id, want string }{
		{"acme__calc-1", "snapshot"},
		{"acme__calc-2", "auto: its test file tests/test_percent.py holds tests/test_percent.py::test_percent_locale, which failed in the env check: built at the merge commit"},
	} {
		if !strings.Contains(blockOf(lines, c.id), c.want) {
			t.Errorf("build of %s lacks %q:\n%s", c.id, c.want, out)
		}
	}
}

// checkWorkspace is a new workspace on the test base image with envCheck
// as its [env_check] table.
func checkWorkspace(t *testing.T, base, envCheck string) string {
	t.Helper()
	ws := newWorkspace(t)
	t.Cleanup(func() { cli(t, "-w", ws, "env", "prune") })
	cfg := readFile(t, filepath.Join(ws, "curate.toml"))
	cfg = strings.Replace(cfg, "[docker]\n", "[docker]\nbase_image = \""+base+"\"\n", 1)
	cfg = strings.Replace(cfg, "[env_check]\n", "[env_check]\n"+envCheck, 1)
	if err := os.WriteFile(filepath.Join(ws, "curate.toml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return ws
}

// mineAndCheck mines the calc clone into ws and checks its environment.
func mineAndCheck(t *testing.T, ws, clone string) (int, string, string) {
	t.Helper()
	if code, out, errs := cli(t, "-w", ws, "mine", "git", clone, "--repo", "acme/calc", "--preset", "none"); code != 0 {
		t.Fatalf("mine: %d\n%s%s", code, out, errs)
	}
	return cli(t, "-w", ws, "env", "check", "acme/calc")
}

// addOnMain commits files on the clone's checked-out main branch.
func addOnMain(t *testing.T, repo string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(repo, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"checkout", "-q", "main"}, {"add", "-A"}, {"-c", "user.name=dev", "-c", "user.email=dev@example.org", "commit", "-q", "-m", "More tests"}} {
		if out, err := exec.Command("git", append([]string{"-C", repo}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

// blockOf is the lines from the one naming id up to the next task's.
func blockOf(lines []string, id string) string {
	var b strings.Builder
	in := false
	for _, l := range lines {
		if strings.Contains(l, "__") && !strings.HasPrefix(l, " ") {
			in = strings.Contains(l, id)
		}
		if in {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}
