package harbor

import (
	"curate/pipeline/sanitize"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"curate/pipeline"
	"curate/pipeline/taskdir"
)

const fixtures = "../../../testdata/import/harbor"

func TestFindFixtures(t *testing.T) {
	dirs, err := Find(fixtures)
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) != 7 {
		t.Fatalf("found %d task dirs: %v", len(dirs), dirs)
	}
}

func TestReadShapes(t *testing.T) {
	cases := []struct {
		dir                        string
		id, bench, repo, lang, cat string
		diff                       pipeline.Difficulty
		feats                      map[string]float64
		featSource                 string // source of files_changed, if any
		extraKeys                  []string
	}{
		{dir: "ccb_largerepo/big-code-k8s-001", id: "big-code-k8s-001", bench: "ccb_largerepo", repo: "kubernetes/kubernetes",
			lang: "go", cat: "big_code_feature", diff: "hard",
			feats:     map[string]float64{"codebase_loc": 3_600_000, "files_count": 15},
			extraKeys: []string{"schema_version", "task.name", "task.authors", "metadata.expert_time_estimate_min", "environment.memory_mb", "agent.timeout_sec"}},
		{dir: "ccb_locobench/python_architectural_understanding_expert_001", id: "python_architectural_understanding_expert_001",
			bench: "ccb_locobench", lang: "python", cat: "architectural_understanding", diff: "expert",
			feats:     map[string]float64{"context_length": 1_052_311, "files_count": 81},
			extraKeys: []string{"version", "environment.memory", "environment.storage", "environment.allow_internet", "metadata.scenario"}},
		{dir: "ccb_swebenchpro/instance_navidrome__navidrome-8e640bb8580affb7", id: "instance_navidrome__navidrome-8e640bb8580affb7",
			bench: "ccb_swebenchpro", repo: "navidrome/navidrome", lang: "javascript", cat: "debugging", diff: "medium",
			feats: map[string]float64{"files_changed": 3, "loc_changed": 7, "lines_added": 5, "lines_removed": 2}, featSource: "tests/config.json patch"},
		{dir: "ccb_pytorch/sgt-008", id: "sgt-008", bench: "ccb_pytorch", repo: "pytorch/pytorch", lang: "python,cpp",
			cat: "cross_module_bug_fix", diff: "hard",
			feats:      map[string]float64{"files_changed": 110, "loc_changed": 3526, "lines_added": 2841, "lines_removed": 685},
			featSource: `instruction.md "files modified"`,
			extraKeys:  []string{"task.time_limit_sec", "verification.command", "verification.type", "environment.memory"}},
		{dir: "ccb_pytorch/sgt-003", id: "sgt-003", bench: "ccb_pytorch", repo: "pytorch/pytorch", lang: "python",
			cat: "feature_implementation", diff: "medium", feats: map[string]float64{"files_changed": 4, "loc_changed": 46}},
		{dir: "ccb_tac/tac-implement-03", id: "tac-implement-03", bench: "ccb_tac", repo: "theagentcompany/api-server",
			lang: "python", cat: "implement",
			extraKeys: []string{"artifacts", "solution.script", "solution.env.API_TOKEN", "custom_grader.rubric", "custom_grader.weight", "task.keywords"}},
		{dir: "taskgen/psf__requests-6028", id: "psf__requests-6028", bench: "taskgen", repo: "psf/requests", lang: "python",
			cat: "debugging", diff: "easy", feats: map[string]float64{"files_changed": 2, "loc_changed": 4}, featSource: "solution/fix.patch"},
	}
	for _, c := range cases {
		t.Run(c.id, func(t *testing.T) {
			tk, err := Read(filepath.Join(fixtures, c.dir), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if tk.ID != c.id || tk.Benchmark != c.bench || tk.Repo != c.repo || tk.Language != c.lang || tk.Category != c.cat || tk.DifficultyImported != c.diff {
				t.Fatalf("got id=%q bench=%q repo=%q lang=%q cat=%q diff=%q", tk.ID, tk.Benchmark, tk.Repo, tk.Language, tk.Category, tk.DifficultyImported)
			}
			for k, v := range c.feats {
				if got, ok := tk.Features.Get(k); !ok || got != v {
					t.Errorf("feature %s = %v (%v), want %v; all %v", k, got, ok, v, tk.Features.Values)
				}
			}
			if c.featSource != "" && tk.Features.Sources["files_changed"] != c.featSource {
				t.Errorf("files_changed source %q, want %q", tk.Features.Sources["files_changed"], c.featSource)
			}
			for _, k := range c.extraKeys {
				if _, ok := tk.Extra[k]; !ok {
					t.Errorf("extra key %q lost; extra = %v", k, tk.Extra)
				}
			}
			want, _ := taskdir.Digest(filepath.Join(fixtures, c.dir))
			if tk.Digest == "" || tk.Digest != want || tk.Title == "" || tk.Body == "" {
				t.Errorf("digest %q title %q", tk.Digest, tk.Title)
			}
		})
	}
	tk, _ := Read(filepath.Join(fixtures, "ccb_tac/tac-implement-03"), Options{Benchmark: "mine"})
	if tk.Benchmark != "mine" {
		t.Errorf("--benchmark not applied: %q", tk.Benchmark)
	}
	if s, _ := tk.Extra["solution.script"].(string); !strings.Contains(s, "python manage.py seed --invoices\n") {
		t.Errorf("multi-line script = %q", s)
	}
}

// badTree copies testdata/import/bad (symlinks kept) and adds a 50 MB+1
// sparse file, which is too big to commit.
func badTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("cp", "-a", "../../../testdata/import/bad", dir).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	root := filepath.Join(dir, "bad")
	big := filepath.Join(root, "huge-file")
	if out, err := exec.Command("cp", "-a", filepath.Join(root, "good-task"), big).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	if err := os.WriteFile(filepath.Join(big, "task.toml"), []byte("[metadata]\ncategory = \"x\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(big, "environment", "dataset.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxFileSize + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	nul := filepath.Join(root, "nul-instruction")
	if out, err := exec.Command("cp", "-a", filepath.Join(root, "good-task"), nul).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	if err := os.WriteFile(filepath.Join(nul, "instruction.md"), []byte("Parse the header \x00\x01 bytes: \"MAGIC\x00\" é\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// A valid UTF-8 instruction with NUL bytes (a task about binary data) is
// imported as it is; screens show the NULs as a placeholder.
func TestReadKeepsNULBytes(t *testing.T) {
	tk, err := Read(filepath.Join(badTree(t), "nul-instruction"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(tk.Body, "\x00") != 2 {
		t.Fatalf("body %q lost its NULs", tk.Body)
	}
	if got := sanitize.Text(tk.Body); strings.ContainsRune(got, 0) || strings.Count(got, sanitize.NULPlaceholder) != 2 {
		t.Fatalf("shown as %q", got)
	}
}

func TestReadBadInput(t *testing.T) {
	root := badTree(t)
	cases := []struct{ dir, want string }{
		{"good-task", ""},
		{"inside-link", ""},
		{"syntax-error", "syntax-error/task.toml:4:"},
		{"no-instruction", "no instruction.md"},
		{"escape-link", "expected.txt: symlink to \"../../../../../../../../etc/hostname\""},
		{"latin1-instruction", "instruction.md: not UTF-8 text: invalid byte 0xe9 at byte offset 5"},
		{"nul-instruction", ""},
		{"huge-file", "dataset.bin: 52428801 bytes is over the 50 MB (52428800 bytes) per-file limit"},
	}
	for _, c := range cases {
		t.Run(c.dir, func(t *testing.T) {
			_, err := Read(filepath.Join(root, c.dir), Options{})
			if c.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
		})
	}
	_, err := Read(filepath.Join(root, "syntax-error"), Options{})
	if !strings.Contains(err.Error(), ":4:22:") {
		t.Errorf("syntax error should give line 4 column 22: %v", err)
	}
}

func TestCopyTaskReplacesAndKeepsLinks(t *testing.T) {
	root := badTree(t)
	dst := filepath.Join(t.TempDir(), "tasks", "inside-link")
	for i := 0; i < 2; i++ {
		if err := CopyTask(filepath.Join(root, "inside-link"), dst); err != nil {
			t.Fatal(err)
		}
	}
	a, _ := taskdir.Digest(filepath.Join(root, "inside-link"))
	b, _ := taskdir.Digest(dst)
	if a != b {
		t.Fatalf("copy digest differs: %s vs %s", a, b)
	}
	if target, err := os.Readlink(filepath.Join(dst, "tests", "run.sh")); err != nil || target != "test.sh" {
		t.Fatalf("link %q %v", target, err)
	}
	// An absolute link inside the dir stays inside the copy.
	src := filepath.Join(root, "inside-link")
	if err := os.Symlink(filepath.Join(src, "tests", "test.sh"), filepath.Join(src, "tests", "abs.sh")); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(src, Options{}); err != nil {
		t.Fatal(err)
	}
	if err := CopyTask(src, dst); err != nil {
		t.Fatal(err)
	}
	if target, err := os.Readlink(filepath.Join(dst, "tests", "abs.sh")); err != nil || target != "test.sh" {
		t.Fatalf("absolute link copied as %q %v", target, err)
	}
	entries, _ := os.ReadDir(filepath.Dir(dst))
	if len(entries) != 1 {
		t.Fatalf("leftovers beside the copy: %v", entries)
	}
}

func FuzzParseTaskTOML(f *testing.F) {
	for _, p := range []string{"ccb_largerepo/big-code-k8s-001", "ccb_pytorch/sgt-008", "ccb_tac/tac-implement-03",
		"ccb_locobench/python_architectural_understanding_expert_001"} {
		data, err := os.ReadFile(filepath.Join(fixtures, p, "task.toml"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("[metadata]\ncontext_length = \"nan\"\nfiles_count = -3\n[task]\nid = 5\n"))
	f.Add([]byte("x = nan\ny = [inf, 1.5]\n[z]\nw = [{q = -inf}]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tt, err := ParseTaskTOML("task.toml", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "task.toml") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if _, err := json.Marshal(tt.Extra); err != nil {
			t.Fatalf("extra cannot be stored: %v", err)
		}
		for k, v := range tt.Features {
			if v < 0 || v != v {
				t.Fatalf("feature %s = %v", k, v)
			}
		}
	})
}

// Without tests/config.json the diff embedded in solve.sh is counted.
func TestReadSolveShEmbeddedDiff(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "instance_navidrome")
	if err := CopyTask(filepath.Join(fixtures, "ccb_swebenchpro/instance_navidrome__navidrome-8e640bb8580affb7"), dir); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "tests", "config.json")); err != nil {
		t.Fatal(err)
	}
	tk, err := Read(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tk.Features.Int("files_changed") != 3 || tk.Features.Int("loc_changed") != 7 ||
		tk.Features.Sources["files_changed"] != "solution/solve.sh embedded diff" {
		t.Fatalf("features %v sources %v", tk.Features.Values, tk.Features.Sources)
	}
}
