package envgen_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"curate/internal/fixtures"
	"curate/internal/testenv"
	"curate/pipeline"
	"curate/pipeline/envgen"
	"curate/pipeline/envgen/envgentest"
	"curate/pipeline/validate"
)

// A PR that touches a file the project checks out with CRLF
// (.gitattributes: *.vcxproj text eol=crlf) builds into a task whose
// image applies bug.patch (the archive has CRLF, the diff LF), and the
// Oracle applies fix.patch: NOP 0, Oracle 1 on the real engine.
func TestCRLFCheckoutTaskBuildsInDocker(t *testing.T) {
	if testing.Short() {
		t.Skip("builds images")
	}
	base := testenv.BaseImage(t)
	fc := envgentest.TestFilter(t)
	dir := t.TempDir()
	g, _ := fixtures.NewGit(dir, "acme/lib")
	proj := func(files ...string) string {
		s := "<Project>\n"
		for _, f := range files {
			s += "  <ClCompile Include=\"" + f + "\" />\n"
		}
		return s + "</Project>\n"
	}
	g.Write(map[string]string{".gitattributes": "*.vcxproj text eol=crlf\n", "win/lib.vcxproj": proj("a.go", "b.go"),
		"go.mod": "module acme/lib\n\ngo 1.19\n", "a.go": "package lib\n\nfunc A() int { return 1 }\n",
		"a_test.go": "package lib\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n\tif A() != 1 {\n\t\tt.Fatal(A())\n\t}\n}\n"})
	g.Commit("init")
	g.Write(map[string]string{"win/lib.vcxproj": proj("a.go", "split.go", "b.go"),
		"a.go": "package lib\n\nfunc A() int { return 2 }\n", "split.go": "package lib\n\nvar Split = true\n",
		"a_test.go": "package lib\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n\tif A() != 2 || !Split {\n\t\tt.Fatal(A())\n\t}\n}\n"})
	g.Commit("Split blocks (#2)")
	if g.Err() != nil {
		t.Fatal(g.Err())
	}
	task := envgentest.MinedTasks(t, dir, fc)[2]
	res, err := envgen.Build(context.Background(), task, t.TempDir(), envgen.Config{Filter: fc, BaseImage: base, Network: envgen.HostNetwork(context.Background(), "")})
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	df, _ := os.ReadFile(res.Dir + "/environment/Dockerfile")
	if !strings.Contains(string(df), "GIT_WORK_TREE=/app git apply") {
		t.Errorf("the task layer applies bug.patch outside a repository:\n%s", df)
	}
	var jobs []validate.Job
	for _, mode := range []string{"nop", "oracle"} {
		jobs = append(jobs, validate.Job{TaskID: task.ID, TaskDir: res.Dir, Digest: res.Digest, Mode: mode})
	}
	for i, run := range dockerValidator(t, "crlf").Validate(context.Background(), jobs) {
		want := map[string]float64{"nop": 0, "oracle": 1}[jobs[i].Mode]
		if run.Outcome != pipeline.OutcomeOK || run.Reward == nil || *run.Reward != want {
			log, _ := os.ReadFile(run.LogPath)
			t.Errorf("%s: outcome %s (%s), reward %v, want %v\n%s", jobs[i].Mode, run.Outcome, run.Detail, run.Reward, want, log)
		}
	}
}
