package cli

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"curate/app"
	"curate/internal/testenv"
	"curate/pipeline/validate"
	"curate/pipeline/validate/kube/kubetest"
)

// The README's examples are tests, and so are the docs pages' (docs/*.md,
// docs/dev/*.md): every ```sh and ```console block runs, in page order,
// through the real command line (this test binary, installed as `curate`
// on PATH), and must succeed as printed.
//
//   - A block runs as one bash script (`set -e -o pipefail`), so `cd` and
//     `export` last until the block ends. In ```console blocks only the
//     lines starting "$ " run; the rest is sample output, which in the
//     README (the tour a newcomer types) must match: each sample line
//     appears in what its command printed, in order ("..." marks lines left
//     out, a line ending " ..." shows only the start of its line; spacing
//     and run ids are not compared).
//   - Where: a demo workspace of the page's own (made with `curate demo`),
//     which also holds `testdata` (this repository's fixtures), so examples
//     name fixtures as testdata/...; HOME is a fresh folder per page, so ~/x
//     is scratch.
//   - <!-- readme-test: in-repo --> before a block runs it from the
//     repository root instead (for `go run ./internal/...`).
//   - <!-- readme-test: docker --> before a block runs it only when a
//     Docker engine answers (always in CI, where CURATE_REQUIRE_DOCKER=1
//     makes a missing engine a failure), with the demo's Dockerfiles on
//     the tests' cached base image instead of bootstrapping
//     curate/base:bookworm; the workspace's images are pruned at the end.
//   - <!-- readme-test: kube --> before a block runs it only when the
//     test cluster answers (.ci/start-kube.sh; always in CI, where
//     CURATE_REQUIRE_KUBE=1 makes a missing cluster a failure).
//   - <!-- readme-test: skip REASON --> before a block, or a trailing
//     "# not tested: REASON" on a line, leaves it out. Every opt-out names
//     its reason (Docker, the network, a terminal); an empty one fails.

// readmeBlock is one fenced block to run.
type readmeBlock struct {
	line    int      // of the opening fence
	inRepo  bool     // run from the repository root
	docker  bool     // run only when a Docker engine answers
	kube    bool     // run only when the test cluster answers
	skip    string   // reason, when skipped
	lines   []string // commands
	lineNos []int
	samples [][]string // per command, the sample output printed under it (console)
}

var (
	fenceRe   = regexp.MustCompile("^```(\\w*)\\s*$")
	markerRe  = regexp.MustCompile(`^<!--\s*readme-test:\s*(skip|in-repo|docker|kube)\s*(.*?)\s*-->\s*$`)
	notTested = regexp.MustCompile(`#\s*not tested:\s*(.*)$`)
)

func readmeBlocks(t *testing.T, path string) []readmeBlock {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	name := pageName(path)
	var blocks []readmeBlock
	var cur *readmeBlock
	var lang, pendingSkip string
	pendingRepo, pendingDocker, pendingKube := false, false, false
	sampleOf := -1 // the command sample output lines belong to
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
				cur = &readmeBlock{line: n, inRepo: pendingRepo, docker: pendingDocker, kube: pendingKube, skip: pendingSkip}
				sampleOf = -1
			} else { // another kind of block (toml, text): skip to its end
				for sc.Scan() {
					n++
					if strings.HasPrefix(sc.Text(), "```") {
						break
					}
				}
			}
			pendingSkip, pendingRepo, pendingDocker, pendingKube = "", false, false, false
			continue
		}
		if cur == nil {
			if m := markerRe.FindStringSubmatch(line); m != nil {
				switch m[1] {
				case "skip":
					if strings.TrimSpace(m[2]) == "" {
						t.Errorf("%s:%d: a skipped example must say why", name, n)
					}
					pendingSkip = m[2]
				case "docker":
					pendingDocker = true
				case "kube":
					pendingKube = true
				default:
					pendingRepo = true
				}
			}
			continue
		}
		cmd := line
		if lang == "console" {
			if !strings.HasPrefix(line, "$ ") {
				if sampleOf >= 0 {
					cur.samples[sampleOf] = append(cur.samples[sampleOf], line)
				}
				continue
			}
			cmd = strings.TrimPrefix(line, "$ ")
		}
		sampleOf = -1
		if m := notTested.FindStringSubmatch(cmd); m != nil {
			if strings.TrimSpace(m[1]) == "" {
				t.Errorf("%s:%d: \"# not tested:\" must say why", name, n)
			}
			continue
		}
		if strings.TrimSpace(cmd) == "" || strings.HasPrefix(strings.TrimSpace(cmd), "#") {
			continue
		}
		cur.lines = append(cur.lines, cmd)
		cur.lineNos = append(cur.lineNos, n)
		cur.samples = append(cur.samples, nil)
		sampleOf = len(cur.lines) - 1
	}
	return blocks
}

// pageName is a page's path from the repository root, for messages.
func pageName(path string) string {
	if i := strings.LastIndex(filepath.ToSlash(path), "/docs/"); i >= 0 {
		return filepath.ToSlash(path)[i+1:]
	}
	return filepath.Base(path)
}

// docPages are the README and every docs page whose examples run.
func docPages(t *testing.T, repo string) []string {
	t.Helper()
	pages := []string{filepath.Join(repo, "README.md")}
	for _, pat := range []string{"docs/*.md", "docs/dev/*.md"} {
		m, err := filepath.Glob(filepath.Join(repo, pat))
		if err != nil {
			t.Fatal(err)
		}
		sort.Strings(m)
		pages = append(pages, m...)
	}
	return pages
}

func TestReadmeExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every README and docs example")
	}
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	pages := docPages(t, repo)
	if len(pages) < 10 {
		t.Fatalf("found %d pages (README.md, docs/*.md); the page list is broken", len(pages))
	}
	bin := filepath.Join(t.TempDir(), "bin")
	os.MkdirAll(bin, 0o755)
	if err := os.Symlink(os.Args[0], filepath.Join(bin, "curate")); err != nil {
		t.Fatal(err)
	}
	ran, pagesRun := 0, 0
	for _, page := range pages {
		blocks := readmeBlocks(t, page)
		t.Run(strings.TrimSuffix(pageName(page), ".md"), func(t *testing.T) {
			pagesRun++
			ran += runPageExamples(t, repo, bin, page, blocks)
		})
	}
	if pagesRun == len(pages) && ran < 10 { // (-run may pick some pages)
		t.Errorf("only %d blocks ran over %d pages; the extraction is broken", ran, len(pages))
	}
}

// runPageExamples runs one page's blocks in order in a demo workspace of
// its own and returns how many ran.
func runPageExamples(t *testing.T, repo, bin, page string, blocks []readmeBlock) int {
	name := pageName(page)
	runnable := 0
	for _, b := range blocks {
		if b.skip == "" && len(b.lines) > 0 {
			runnable++
		}
	}
	if runnable == 0 {
		t.Logf("%s: no block to run", name)
		return 0
	}
	tmp := t.TempDir()
	home := filepath.Join(tmp, "home")
	os.MkdirAll(home, 0o755)
	demo := filepath.Join(tmp, "demo")
	if code, _, errs := cli(t, "demo", "--dir", demo, "--no-open"); code != 0 {
		t.Fatalf("demo: %s", errs)
	}
	if err := os.Symlink(filepath.Join(repo, "testdata"), filepath.Join(demo, "testdata")); err != nil {
		t.Fatal(err)
	}
	env := exampleEnv(bin, home)
	ran, skipped := 0, 0
	docker := "" // "", "ready" or why Docker blocks are left out
	for _, b := range blocks {
		if b.skip != "" || len(b.lines) == 0 {
			skipped++
			continue
		}
		if b.kube {
			if err := kubetest.Answers(); err != nil {
				if os.Getenv("CURATE_REQUIRE_KUBE") == "1" {
					t.Errorf("%s:%d: CURATE_REQUIRE_KUBE=1 but no cluster answers: %v", name, b.line, err)
				} else {
					t.Logf("%s:%d: left out: no Kubernetes cluster (%v)", name, b.line, err)
				}
				skipped++
				continue
			}
		}
		if b.docker {
			if docker == "" {
				docker = dockerForExamples(t, demo)
			}
			if docker != "ready" {
				t.Logf("%s:%d: left out: %s", name, b.line, docker)
				skipped++
				continue
			}
		}
		var script strings.Builder
		script.WriteString("set -e -o pipefail\n")
		for i, l := range b.lines {
			fmt.Fprintf(&script, "echo '::%s:%d' >&2\n%s\n", name, b.lineNos[i], l)
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
			if i := strings.LastIndex(string(out), "::"+name+":"); i >= 0 {
				failed, _, _ = strings.Cut(string(out[i+2:]), "\n")
			}
			t.Errorf("%s: the example fails as printed (%v):\n%s", failed, err, out)
			continue
		}
		if name == "README.md" {
			checkSamples(t, name, b, string(out))
		}
		ran++
		t.Logf("%s:%d: %d command(s) ok in %v", name, b.line, len(b.lines), time.Since(start).Round(time.Millisecond))
	}
	t.Logf("%s: %d blocks ran, %d left out with a reason", name, ran, skipped)
	return ran
}

var runIDRe = regexp.MustCompile(`\br\d{6}-\d{6}-[0-9a-f]{4}\b`)

// sampleLine is a line of output as a sample is compared: spaces
// collapsed (column widths follow the data), run ids (made of the time)
// alike.
func sampleLine(s string) string {
	return runIDRe.ReplaceAllString(strings.Join(strings.Fields(s), " "), "RUN")
}

// checkSamples holds the README's sample output to what the commands
// printed: each command's sample lines must appear in its output, in
// order; "..." stands for lines left out.
func checkSamples(t *testing.T, name string, b readmeBlock, out string) {
	t.Helper()
	outputs := map[int][]string{}
	cur := -1
	for _, l := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(l, "::"+name+":"); ok {
			fmt.Sscan(rest, &cur)
			continue
		}
		outputs[cur] = append(outputs[cur], sampleLine(l))
	}
	for i, sample := range b.samples {
		got := outputs[b.lineNos[i]]
		j := 0
		for _, want := range sample {
			w := sampleLine(want)
			if w == "" || w == "..." {
				continue
			}
			for j < len(got) && !sampleMatches(got[j], w) {
				j++
			}
			if j == len(got) {
				t.Errorf("%s:%d: `%s` printed no line %q (in this order); it printed:\n%s",
					name, b.lineNos[i], b.lines[i], want, strings.Join(outputs[b.lineNos[i]], "\n"))
				break
			}
			j++
		}
	}
}

// sampleMatches compares a printed line with a sample line; a sample
// ending in " ..." shows the start of a long line.
func sampleMatches(got, want string) bool {
	if prefix, ok := strings.CutSuffix(want, " ..."); ok {
		return strings.HasPrefix(got, prefix)
	}
	return got == want
}

// exampleEnv is the examples' environment: curate first on PATH, a scratch
// HOME, no colour, and the real Go caches for `go run` examples.
func exampleEnv(bin, home string) []string {
	env := []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"), "HOME=" + home,
		"CURATE_TEST_AS_CLI=1", "NO_COLOR=1", "TERM=dumb"}
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
	return env
}

// dockerForExamples readies the demo workspace for `readme-test: docker`
// blocks: "ready" when an engine answers (the demo's Dockerfiles then
// stand on the tests' cached base image, which the same bootstrap code
// made), else why the blocks are left out. CI requires an engine.
func dockerForExamples(t *testing.T, demo string) string {
	t.Helper()
	c, err := validate.NewClient("")
	if err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, err = c.Ping(ctx)
		cancel()
		c.Close()
	}
	if err != nil {
		if os.Getenv("CURATE_REQUIRE_DOCKER") == "1" {
			t.Fatalf("CURATE_REQUIRE_DOCKER=1 but no Docker engine answers: %v", err)
		}
		return "no Docker engine answers (" + err.Error() + ")"
	}
	base := testenv.BaseImage(t)
	t.Cleanup(func() { cli(t, "-w", demo, "env", "prune") })
	dockerfiles, _ := filepath.Glob(filepath.Join(demo, "tasks", "*", "environment", "Dockerfile"))
	if len(dockerfiles) == 0 {
		t.Fatal("the demo has no built task")
	}
	for _, df := range dockerfiles {
		data, err := os.ReadFile(df)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(df, []byte(strings.Replace(string(data), "FROM "+app.DemoBaseImage, "FROM "+base, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return "ready"
}
