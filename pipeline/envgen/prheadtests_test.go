package envgen_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"curate/pipeline/envgen"
	"curate/pipeline/source/gitmine"
)

// TestTestsFromPRHeadWhenHelperRenamed is the Go web framework's PR #2749
// (squash 417b1427, 2022-03-18): its branch's routes_test.go calls the
// helper performRequest, which the mainline renamed to PerformRequest
// (#3012, 2022-01-02) before the squash, so the merge commit's tests fail
// in both states with "undefined: performRequest". With the PR's own head
// in the clone (refs/pull/1/head), the helper is declared as the head
// declares it in one more test file, and the package compiles with it.
func TestTestsFromPRHeadWhenHelperRenamed(t *testing.T) {
	dir, git, write := datedRepo(t, "2022-01-02T10:00:")
	filler := strings.Repeat("// a line between the helper and the tests\n", 8)
	helper := func(name string) string {
		return "package web\n\nimport \"testing\"\n\nfunc " + name + "(path string) string { return Route(path) }\n\n" + filler +
			"func TestRoute(t *testing.T) {\n\tif " + name + "(\"/\") != \"root\" {\n\t\tt.Fatal()\n\t}\n}\n"
	}
	git("init", "-q", "-b", "main")
	git("remote", "add", "origin", "https://github.com/acme/web.git")
	write(map[string]string{"go.mod": "module github.com/acme/web\n\ngo 1.17\n", "routes.go": "package web\n\n// Route names a path.\nfunc Route(p string) string { return \"root\" }\n", "routes_test.go": helper("performRequest")})
	git("add", "-A")
	git("commit", "-q", "-m", "Routes")
	git("checkout", "-q", "-b", "static")
	write(map[string]string{
		"static.go":      "package web\n\n// Static names a static path.\nfunc Static(p string) string { return \"static\" }\n",
		"routes_test.go": helper("performRequest") + "\nfunc TestStatic(t *testing.T) {\n\tif performRequest(\"/\") != Static(\"/\") {\n\t\tt.Skip()\n\t}\n}\n",
	})
	git("add", "-A")
	git("commit", "-q", "-m", "Static paths")
	git("update-ref", "refs/pull/1/head", "static")
	git("checkout", "-q", "main")
	write(map[string]string{"routes_test.go": helper("PerformRequest"), "expose_test.go": "package web\n\nimport \"testing\"\n\nfunc TestExposed(t *testing.T) { _ = PerformRequest(\"/\") }\n"})
	git("add", "-A")
	git("commit", "-q", "-m", "test: expose performRequest func (#2)")
	git("merge", "-q", "--squash", "static")
	git("commit", "-q", "-m", "feat: add Static (#1)")

	ctx := context.Background()
	prs, err := gitmine.Mine(ctx, gitmine.Options{Path: dir})
	if err != nil {
		t.Fatal(err)
	}
	for _, pr := range prs {
		if pr.Number != 1 {
			continue
		}
		task := pr.Task("git", dir, nil)
		res, err := envgen.Build(ctx, task, t.TempDir(), envgen.Config{Filter: profileFilter(t), BaseImage: "curate/base:bookworm"})
		if err != nil {
			t.Fatalf("build: %v", err)
		}
		gen, err := os.ReadFile(filepath.Join(res.Dir, "tests", "files", "zz_curate_pr_helpers_test.go"))
		if err != nil || !strings.Contains(string(gen), "func performRequest(path string) string") {
			t.Errorf("no helper file declaring performRequest as the PR's head does: %v\n%s", err, gen)
		}
		if !strings.Contains(strings.Join(res.Notes, "\n"), "refs/pull/1/head") {
			t.Errorf("notes do not say where the helpers came from: %v", res.Notes)
		}
		// The merge commit with the task's test files compiles and passes.
		work := t.TempDir()
		archive := exec.Command("sh", "-c", "git -C \"$1\" archive HEAD | tar -x -C \"$2\" && cp -R \"$3\"/. \"$2\"/", "sh", dir, work, filepath.Join(res.Dir, "tests", "files"))
		if out, err := archive.CombinedOutput(); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		test := exec.Command("go", "test", "-count=1", "./...")
		test.Dir, test.Env = work, append(os.Environ(), "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod", "GOPROXY=off")
		if out, err := test.CombinedOutput(); err != nil {
			t.Errorf("the merge commit with the task's tests: %v\n%s", err, out)
		}
		return
	}
	t.Fatalf("PR #1 not mined: %d PRs", len(prs))
}
