package envgen_test

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"curate/internal/testenv"
	"curate/pipeline/envgen"
	"curate/pipeline/source/gitmine"
	"curate/pipeline/validate"
	"curate/pipeline/validate/egress"
)

// cacheLineRe is the build log's count of a build's downloads.
var cacheLineRe = regexp.MustCompile(`curate: network: package cache: (\d+) from the cache \([^)]*\), (\d+) fetched from the registries`)

// Two Go repositories that need the same modules (go-isatty and the
// x/sys it requires, from the module proxy): the first image's build
// fetches them from the registry into curate's package cache, the
// second's gets every one from the cache and fetches none (issue 53: each
// repository image downloaded its dependencies again). Counted from the
// build logs.
func TestSecondImageDownloadsNoModuleItAlreadyHas(t *testing.T) {
	if testing.Short() {
		t.Skip("builds images")
	}
	base := testenv.BaseImage(t)
	ctx := context.Background()
	r, err := validate.NewDockerRunner("", fmt.Sprintf("test-pkgcache-%d", os.Getpid()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		r.Prune(context.Background(), false)
		r.Close()
	})
	cache := egress.NewCache(t.TempDir(), egress.Routes("", "", "", ""))
	r.SetPackageCache(func() (*egress.Cache, error) { return cache, nil })
	var hits, fetched [2]int
	for i, name := range []string{"alpha", "beta"} {
		dir := isattyRepo(t, name)
		prs, err := gitmine.Mine(ctx, gitmine.Options{Path: dir})
		if err != nil || len(prs) != 1 {
			t.Fatalf("%s: mined %d PRs: %v", name, len(prs), err)
		}
		task := prs[0].Task("git", dir, nil)
		res, err := envgen.Build(ctx, task, t.TempDir(), envgen.Config{Filter: profileFilter(t), BaseImage: base, Network: envgen.HostNetwork(ctx, "")})
		if err != nil {
			t.Fatalf("%s: build: %v", name, err)
		}
		var log strings.Builder
		if _, _, err := r.Image(ctx, res.Dir, &log); err != nil {
			t.Fatalf("%s: image: %v\n%s", name, err, log.String())
		}
		lines := cacheLineRe.FindAllStringSubmatch(log.String(), -1)
		for _, m := range lines {
			t.Logf("%s: %s", name, m[0])
		}
		if len(lines) == 0 {
			t.Fatalf("%s: no package cache line in the build log:\n%s", name, log.String())
		}
		for _, m := range lines {
			h, _ := strconv.Atoi(m[1])
			f, _ := strconv.Atoi(m[2])
			hits[i] += h
			fetched[i] += f
		}
		if i == 1 && fetched[1] != 0 {
			t.Errorf("the second repository's image fetched %d files the first had already fetched:\n%s", fetched[1], log.String())
		}
	}
	if fetched[0] < 2 {
		t.Errorf("the first image fetched %d files through the cache, want go-isatty's and x/sys's", fetched[0])
	}
	if hits[1] < fetched[0] {
		t.Errorf("the second image got %d files from the cache, want the first's %d", hits[1], fetched[0])
	}
}

// isattyRepo is a Go module needing go-isatty v0.0.20, with one merged
// PR that changes a function and its test.
func isattyRepo(t *testing.T, name string) string {
	t.Helper()
	dir, git, write := datedRepo(t, "2024-03-01T10:00:")
	git("init", "-q", "-b", "main")
	git("remote", "add", "origin", "https://git.example.org/acme/"+name+".git")
	mod := "module example.org/acme/" + name + "\n\ngo 1.19\n\nrequire github.com/mattn/go-isatty v0.0.20\n\nrequire golang.org/x/sys v0.6.0 // indirect\n"
	sum := "github.com/mattn/go-isatty v0.0.20 h1:xfD0iDuEKnDkl03q4limB+vH+GxLEtL/jb4xVJSWWEY=\n" +
		"github.com/mattn/go-isatty v0.0.20/go.mod h1:W+V8PltTTMOvKvAeJH7IuucS94S2C6jfK/D7dTCTo3Y=\n" +
		"golang.org/x/sys v0.6.0 h1:MVltZSvRTcU2ljQOhs94SXPftV6DCNnZViHeQps87pQ=\n" +
		"golang.org/x/sys v0.6.0/go.mod h1:oPkhp1MJrh7nUepCBck5+mAzfO9JrbApNNgaTdGDITg=\n"
	code := func(label string) string {
		return "package " + name + "\n\nimport (\n\t\"os\"\n\n\t\"github.com/mattn/go-isatty\"\n)\n\n// Mode says how output is shown.\nfunc Mode() string {\n\tif isatty.IsTerminal(os.Stdout.Fd()) {\n\t\treturn \"color\"\n\t}\n\treturn \"" + label + "\"\n}\n"
	}
	test := func(label string) string {
		return "package " + name + "\n\nimport \"testing\"\n\nfunc TestMode(t *testing.T) {\n\tif m := Mode(); m != \"color\" && m != \"" + label + "\" {\n\t\tt.Fatal(m)\n\t}\n}\n"
	}
	// A comment unique to the run in the manifest: no layer of the
	// engine's cache stands in for the module downloads.
	mod += fmt.Sprintf("\n// made by a test at %d\n", time.Now().UnixNano())
	write(map[string]string{"go.mod": mod, "go.sum": sum, "mode.go": code("plain"), "mode_test.go": test("plain")})
	git("add", "-A")
	git("commit", "-q", "-m", "Output mode")
	git("checkout", "-q", "-b", "mono")
	write(map[string]string{"mode.go": code("monochrome"), "mode_test.go": test("monochrome")})
	git("add", "-A")
	git("commit", "-q", "-m", "Call plain output monochrome")
	git("checkout", "-q", "main")
	git("merge", "-q", "--no-ff", "-m", "Merge pull request #1 from acme/mono\n\nMonochrome", "mono")
	return dir
}
