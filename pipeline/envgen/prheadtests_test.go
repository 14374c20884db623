package envgen_test

import (
	"context"
	"os"
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
// in the clone (refs/pull/1/head), every test file of the package comes
// from there, and a test file the head lacks is removed by test.sh.
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
		got, err := os.ReadFile(filepath.Join(res.Dir, "tests", "files", "routes_test.go"))
		if err != nil || !strings.Contains(string(got), "func performRequest(") || !strings.Contains(string(got), "TestStatic") {
			t.Errorf("tests/files/routes_test.go is not the PR head's (defining performRequest): %v\n%s", err, got)
		}
		sh, _ := os.ReadFile(filepath.Join(res.Dir, "tests", "test.sh"))
		if !strings.Contains(string(sh), "expose_test.go") {
			t.Errorf("test.sh does not remove expose_test.go, which the PR's head lacks:\n%s", sh)
		}
		if !strings.Contains(strings.Join(res.Notes, "\n"), "refs/pull/1/head") {
			t.Errorf("notes do not say where the tests came from: %v", res.Notes)
		}
		return
	}
	t.Fatalf("PR #1 not mined: %d PRs", len(prs))
}
