package envgen_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"curate/internal/testenv"
	"curate/pipeline"
	"curate/pipeline/envgen"
	"curate/pipeline/source/gitmine"
	"curate/pipeline/validate"
)

// TestGopathEraRevisionValidates reproduces, in a small repository, two
// failures of a Go web framework's PRs of 2017 (no go.mod, GOPATH era):
//
//   - PR #987 (merge c4249f92, 2017-07-08): the oracle run stopped at
//     "./logger.go:61:74: undefined: isatty.IsCygwinTerminal", the dated
//     pick of go-isatty (v0.0.0-20161123143637-30a891c33c7c) being older
//     than the name. The build now retries the module's next release.
//   - its 2017-2018 revisions import their own subpackages by full path
//     (github.com/<owner>/<repo>/json); the module path came from the
//     clone's origin, so a clone of a mirror or fork named another module,
//     and `go test` asked the module proxy for the repository's own
//     package with the network off: deps_unreachable. The module path now
//     comes from the code's imports of its own folders, and the tests run
//     with the proxy off (a package the bug state lacks is a build error).
//
// The repository here: a 2017 revision importing go-isatty's
// IsCygwinTerminal, cloned from a mirror, and a PR adding the subpackage
// render/ that its code and test import as github.com/acme/web/render.
// NOP must give 0, Oracle 1.
func TestGopathEraRevisionValidates(t *testing.T) {
	if testing.Short() {
		t.Skip("builds images")
	}
	expectOK(t, validateOnlyPR(t, gopathEraRepo(t), "gopath", "nop", "oracle"))
}

// expectOK fails the test for each run whose outcome is not ok, with its log.
func expectOK(t *testing.T, runs map[string]*pipeline.Run) {
	t.Helper()
	for mode, run := range runs {
		if run.Outcome != pipeline.OutcomeOK {
			log, _ := os.ReadFile(run.LogPath)
			t.Errorf("%s: outcome %s (%s)\n%s", mode, run.Outcome, run.Detail, log)
		}
	}
}

// validateOnlyPR mines the one PR of the repository in dir, builds its
// task and validates it in the given modes on the test base image.
func validateOnlyPR(t *testing.T, dir, name string, modes ...string) map[string]*pipeline.Run {
	t.Helper()
	base := testenv.BaseImage(t)
	ctx := context.Background()
	prs, err := gitmine.Mine(ctx, gitmine.Options{Path: dir})
	if err != nil || len(prs) != 1 {
		t.Fatalf("mined %d PRs: %v", len(prs), err)
	}
	task := prs[0].Task("git", dir, nil)
	res, err := envgen.Build(ctx, task, t.TempDir(), envgen.Config{Filter: profileFilter(t), BaseImage: base, Network: envgen.HostNetwork(ctx, "")})
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	var jobs []validate.Job
	for _, mode := range modes {
		jobs = append(jobs, validate.Job{TaskID: task.ID, TaskDir: res.Dir, Digest: res.Digest, Mode: mode})
	}
	runs := map[string]*pipeline.Run{}
	for i, run := range dockerValidator(t, name).Validate(ctx, jobs) {
		runs[jobs[i].Mode] = run
	}
	return runs
}

// gopathEraRepo makes a repository without go.mod whose commits are dated
// January 2017, with one merged PR (#1).
func gopathEraRepo(t *testing.T) string {
	t.Helper()
	return mergedPRRepo(t, "2017-01-15T10:00:", "https://git.example.org/mirrors/web-mirror.git", map[string]string{
		"term.go":      "package web\n\nimport (\n\t\"os\"\n\n\t\"github.com/mattn/go-isatty\"\n)\n\n// Colored says whether output goes to a terminal (Cygwin's too).\nfunc Colored() bool {\n\tfd := os.Stdout.Fd()\n\treturn isatty.IsTerminal(fd) || isatty.IsCygwinTerminal(fd)\n}\n",
		"term_test.go": "package web\n\nimport \"testing\"\n\nfunc TestColoredPipe(t *testing.T) {\n\tif Colored() {\n\t\tt.Skip(\"a terminal\")\n\t}\n}\n",
	}, map[string]string{
		"render/render.go": "// Package render writes responses.\npackage render\n\n// Status is the status line of code.\nfunc Status(code int) string {\n\tif code == 200 {\n\t\treturn \"200 OK\"\n\t}\n\treturn \"500 Internal Server Error\"\n}\n",
		"web.go":           "package web\n\nimport \"github.com/acme/web/render\"\n\n// Status is the status line of code.\nfunc Status(code int) string { return render.Status(code) }\n",
		"web_test.go":      "package web\n\nimport (\n\t\"testing\"\n\n\t\"github.com/acme/web/render\"\n)\n\nfunc TestStatus(t *testing.T) {\n\tif Status(200) != render.Status(200) || Status(200) != \"200 OK\" {\n\t\tt.Fatal(Status(200))\n\t}\n}\n",
	}, "render", "Status lines from a render package")
}

// mergedPRRepo makes a repository whose commits are dated prefix+seconds:
// the files of base on main, the PR's changes on branch, merged as PR #1
// with --no-ff; origin is set when given.
func mergedPRRepo(t *testing.T, prefix, origin string, base, change map[string]string, branch, subject string) string {
	t.Helper()
	dir, git, write := datedRepo(t, prefix)
	git("init", "-q", "-b", "main")
	if origin != "" {
		git("remote", "add", "origin", origin)
	}
	write(base)
	git("add", "-A")
	git("commit", "-q", "-m", "Initial commit")
	git("checkout", "-q", "-b", branch)
	write(change)
	git("add", "-A")
	git("commit", "-q", "-m", subject)
	git("checkout", "-q", "main")
	git("merge", "-q", "--no-ff", "-m", "Merge pull request #1 from acme/"+branch+"\n\n"+subject, branch)
	return dir
}

// datedRepo is an empty folder with a git command whose commits are dated
// prefix+seconds (one second per command) and a file writer.
func datedRepo(t *testing.T, prefix string) (string, func(...string), func(map[string]string)) {
	t.Helper()
	dir := t.TempDir()
	env := append(os.Environ(), "GIT_AUTHOR_NAME=Dev", "GIT_AUTHOR_EMAIL=dev@example.com", "GIT_COMMITTER_NAME=Dev",
		"GIT_COMMITTER_EMAIL=dev@example.com", "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
	step := 0
	git := func(args ...string) {
		t.Helper()
		step++
		date := fmt.Sprintf("%s%02dZ", prefix, step%60)
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = dir, append(env, "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	write := func(files map[string]string) {
		t.Helper()
		for p, body := range files {
			if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, p), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir, git, write
}
