package cli

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The README's examples are tests: every ```sh and ```console block runs,
// in README order, through the real command line (this test binary,
// installed as `curate` on PATH), and must succeed as printed.
//
//   - A block runs as one bash script (`set -e -o pipefail`), so `cd` and
//     `export` last until the block ends. In ```console blocks only the
//     lines starting "$ " run; the rest is sample output.
//   - Where: the demo workspace (made once with `curate demo`), which also
//     holds `testdata` (this repository's fixtures), so examples name
//     fixtures as testdata/...; HOME is a fresh folder, so ~/x is scratch.
//   - <!-- readme-test: in-repo --> before a block runs it from the
//     repository root instead (for `go run ./internal/...`).
//   - <!-- readme-test: skip REASON --> before a block, or a trailing
//     "# not tested: REASON" on a line, leaves it out. Every opt-out names
//     its reason (Docker, the network, a terminal); an empty one fails.

// readmeBlock is one fenced block to run.
type readmeBlock struct {
	line    int      // of the opening fence
	inRepo  bool     // run from the repository root
	skip    string   // reason, when skipped
	lines   []string // commands
	lineNos []int
}

var (
	fenceRe   = regexp.MustCompile("^```(\\w*)\\s*$")
	markerRe  = regexp.MustCompile(`^<!--\s*readme-test:\s*(skip|in-repo)\s*(.*?)\s*-->\s*$`)
	notTested = regexp.MustCompile(`#\s*not tested:\s*(.*)$`)
)

func readmeBlocks(t *testing.T, path string) []readmeBlock {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var blocks []readmeBlock
	var cur *readmeBlock
	var lang, pendingSkip string
	pendingRepo := false
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if m := fenceRe.FindStringSubmatch(line); m != nil {
			if cur != nil { // closing fence
				blocks = append(blocks, *cur)
				cur = nil
				continue
			}
			lang = m[1]
			if lang == "sh" || lang == "console" {
				cur = &readmeBlock{line: n, inRepo: pendingRepo, skip: pendingSkip}
			} else { // another kind of block (toml, text): skip to its end
				for sc.Scan() {
					n++
					if strings.HasPrefix(sc.Text(), "```") {
						break
					}
				}
			}
			pendingSkip, pendingRepo = "", false
			continue
		}
		if cur == nil {
			if m := markerRe.FindStringSubmatch(line); m != nil {
				if m[1] == "skip" {
					if strings.TrimSpace(m[2]) == "" {
						t.Errorf("README.md:%d: a skipped example must say why", n)
					}
					pendingSkip = m[2]
				} else {
					pendingRepo = true
				}
			}
			continue
		}
		cmd := line
		if lang == "console" {
			if !strings.HasPrefix(line, "$ ") {
				continue
			}
			cmd = strings.TrimPrefix(line, "$ ")
		}
		if m := notTested.FindStringSubmatch(cmd); m != nil {
			if strings.TrimSpace(m[1]) == "" {
				t.Errorf("README.md:%d: \"# not tested:\" must say why", n)
			}
			continue
		}
		if strings.TrimSpace(cmd) == "" || strings.HasPrefix(strings.TrimSpace(cmd), "#") {
			continue
		}
		cur.lines = append(cur.lines, cmd)
		cur.lineNos = append(cur.lineNos, n)
	}
	return blocks
}

func TestReadmeExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every README example")
	}
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	blocks := readmeBlocks(t, filepath.Join(repo, "README.md"))
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "bin")
	home := filepath.Join(tmp, "home")
	os.MkdirAll(bin, 0o755)
	os.MkdirAll(home, 0o755)
	if err := os.Symlink(os.Args[0], filepath.Join(bin, "curate")); err != nil {
		t.Fatal(err)
	}
	demo := filepath.Join(tmp, "demo")
	if code, _, errs := cli(t, "demo", "--dir", demo, "--no-open"); code != 0 {
		t.Fatalf("demo: %s", errs)
	}
	if err := os.Symlink(filepath.Join(repo, "testdata"), filepath.Join(demo, "testdata")); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"), "HOME=" + home,
		"CURATE_TEST_AS_CLI=1", "NO_COLOR=1", "TERM=dumb"}
	// `go run` examples keep the real build and module caches.
	if out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE", "GOPATH").Output(); err == nil {
		vals := strings.Split(strings.TrimSpace(string(out)), "\n")
		for i, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
			if i < len(vals) {
				env = append(env, k+"="+vals[i])
			}
		}
	}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "PATH", "HOME", "CURATE_WORKSPACE", "TERM", "GOCACHE", "GOMODCACHE", "GOPATH":
		default:
			env = append(env, kv)
		}
	}
	ran, skipped := 0, 0
	for _, b := range blocks {
		if b.skip != "" || len(b.lines) == 0 {
			skipped++
			continue
		}
		var script strings.Builder
		script.WriteString("set -e -o pipefail\n")
		for i, l := range b.lines {
			fmt.Fprintf(&script, "echo '::README.md:%d' >&2\n%s\n", b.lineNos[i], l)
		}
		cmd := exec.Command("bash", "-c", script.String())
		cmd.Dir = demo
		if b.inRepo {
			cmd.Dir = repo
		}
		cmd.Env = env
		start := time.Now()
		out, err := cmd.CombinedOutput()
		if err != nil {
			failed := "?"
			if i := strings.LastIndex(string(out), "::README.md:"); i >= 0 {
				failed, _, _ = strings.Cut(string(out[i+2:]), "\n")
			}
			t.Errorf("%s: the example fails as printed (%v):\n%s", failed, err, out)
			continue
		}
		ran++
		t.Logf("README.md:%d: %d command(s) ok in %v", b.line, len(b.lines), time.Since(start).Round(time.Millisecond))
	}
	if ran < 5 {
		t.Errorf("only %d README blocks ran; the extraction is broken", ran)
	}
	t.Logf("%d blocks ran, %d skipped with a reason", ran, skipped)
}
