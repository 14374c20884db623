package cli

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"curate/pipeline"
)

// hostileTaskTOMLs are the task.toml values issue 18 found breaking the
// workspace or passing silently, one task dir each.
var hostileTaskTOMLs = map[string]string{
	"inf-loc":         "[metadata]\ncodebase_loc = inf\n",
	"nan-ratio":       "[metadata]\ncode_ratio = nan\n",
	"difficulty-5":    "[metadata]\ndifficulty = 5\n",
	"category-list":   "[metadata]\ncategory = [\"a\"]\n",
	"difficulty-5mb":  "[metadata]\ndifficulty = \"" + strings.Repeat("d", 5<<20) + "\"\n",
	"timeout-abc":     "[verifier]\ntimeout_sec = \"abc\"\n",
	"cpus-many":       "[environment]\ncpus = \"many\"\n",
	"cpus-negative":   "[environment]\ncpus = -1\n",
	"extra-inf":       "[custom]\nweight = -inf\n",
	"id-path":         "[task]\nid = \"../../evil\"\n",
	"memory-negative": "[environment]\nmemory = \"-8G\"\n",
}

func TestImportHostileValuesKeepListingsWorking(t *testing.T) {
	ws := newWorkspace(t)
	src := filepath.Join(t.TempDir(), "bench")
	write := func(name, toml string) {
		dir := filepath.Join(src, name)
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, "task.toml"), []byte("version = \"1.0\"\n"+toml), 0o644)
		os.WriteFile(filepath.Join(dir, "instruction.md"), []byte("Fix "+name+"\n"), 0o644)
	}
	for name, toml := range hostileTaskTOMLs {
		write(name, toml)
	}
	write("good", "[metadata]\ncodebase_loc = 1200\ndifficulty = \"hard\"\n")
	out, _, code := curate(t, "-w", ws, "import", "harbor", src, "--json")
	s := summaryOf(t, out)
	if code != 1 || len(s.Imported) != 1 || s.Imported[0] != "good" || len(s.Failed) != len(hostileTaskTOMLs) { // exit 1: something failed, the good task imported all the same
		t.Fatalf("harbor: code %d summary %+v", code, s)
	}
	for _, f := range s.Failed {
		key := map[string]string{"inf-loc": "metadata.codebase_loc", "nan-ratio": "metadata.code_ratio", "difficulty-5": "metadata.difficulty",
			"category-list": "metadata.category", "difficulty-5mb": "metadata.difficulty", "timeout-abc": "verifier.timeout_sec",
			"cpus-many": "environment.cpus", "cpus-negative": "environment.cpus", "extra-inf": "custom.weight", "id-path": "task.id",
			"memory-negative": "environment.memory"}[filepath.Base(f.Source)]
		if !strings.Contains(f.Reason, "task.toml:") || !strings.Contains(f.Reason, ": "+key+": ") || len(f.Reason) > 500 {
			t.Errorf("%s: reason %.300q should name task.toml:line:col and %s", f.Source, f.Reason, key)
		}
	}

	jsonl := filepath.Join(t.TempDir(), "rows.jsonl")
	os.WriteFile(jsonl, []byte(`{"instance_id":"../../evil","repo":"a/b"}
{"instance_id":"x__y-1","difficulty":"5"}
{"instance_id":"x__y-2","FAIL_TO_PASS":{"a":1}}
{"instance_id":"x__y-3","created_at":`+`"`+strings.Repeat("c", 2<<10)+`"}
{"instance_id":"x__y-4","repo":"x/y","patch":"diff --git a/a.py b/a.py\n--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-a\n+b\n"}
`), 0o644)
	out, _, code = curate(t, "-w", ws, "import", "swebench", jsonl, "--json")
	s = summaryOf(t, out)
	if code != 1 || len(s.Imported) != 1 || len(s.Failed) != 4 || !strings.HasSuffix(s.Failed[0].Source, "rows.jsonl:1") ||
		!strings.Contains(s.Failed[0].Reason, "instance_id:") {
		t.Fatalf("swebench: code %d summary %+v", code, s)
	}
	if _, err := os.Stat(filepath.Join(ws, "..", "..", "evil")); err == nil {
		t.Fatal("a ../../evil id reached the file system")
	}

	manifest := filepath.Join(t.TempDir(), "m.json")
	os.WriteFile(manifest, []byte(`{"tasks": [{"task_id": "m-1", "mcp_benefit_score": "high"}, {"task_id": "m-2", "difficulty": "hard"}]}`), 0o644)
	out, _, code = curate(t, "-w", ws, "import", "manifest", manifest, "--json")
	s = summaryOf(t, out)
	if code != 1 || len(s.Imported) != 1 || len(s.Failed) != 1 || !strings.Contains(s.Failed[0].Source, "m.json:1 tasks[1]") {
		t.Fatalf("manifest: code %d summary %+v", code, s)
	}

	// A value that cannot be encoded, stored before the strict reader
	// existed, never breaks a listing.
	w := openWS(t, ws)
	old := &pipeline.Task{ID: "stored-inf", Benchmark: "old", Source: "harbor", Status: pipeline.StatusImported}
	old.Features.Set(pipeline.FeatCodebaseLOC, math.Inf(1), "task.toml metadata.codebase_loc")
	old.Features.Set(pipeline.FeatFilesChanged, 3, "solution/fix.patch")
	if err := w.Store.UpsertTasks(context.Background(), []*pipeline.Task{old}); err != nil {
		t.Fatal(err)
	}
	out, errs, code := curate(t, "-w", ws, "list", "--json")
	var listed []map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &listed) != nil || len(listed) != 4 {
		t.Fatalf("list --json: %d %q %s", code, errs, out)
	}
	out, errs, code = curate(t, "-w", ws, "show", "stored-inf", "--json")
	if code != 0 || !strings.Contains(out, `"files_changed": 3`) {
		t.Fatalf("show --json: %d %q %s", code, errs, out)
	}
}

func TestImportSWEbenchEmptyAndMissingFiles(t *testing.T) {
	ws := newWorkspace(t)
	empty := filepath.Join(t.TempDir(), "empty.jsonl")
	os.WriteFile(empty, []byte("\n\n"), 0o644)
	out, _, code := curate(t, "-w", ws, "import", "swebench", empty)
	if code != 0 || !strings.Contains(out, "0 imported") || !strings.Contains(out, "note: "+empty+": no rows") {
		t.Fatalf("empty: %d %q", code, out)
	}
	missing := filepath.Join(t.TempDir(), "missing.jsonl")
	out, errs, code := curate(t, "-w", ws, "import", "swebench", missing)
	if code != 1 || !strings.Contains(errs, "missing.jsonl: no such file") {
		t.Fatalf("missing .jsonl: %d %q %q", code, out, errs)
	}
	_, errs, code = curate(t, "-w", ws, "import", "manifest", filepath.Join(t.TempDir(), "missing.json"))
	if code != 1 || !strings.Contains(errs, "missing.json: no such file") {
		t.Fatalf("missing manifest: %d %q", code, errs)
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte(`{"tasks": {"task_id": "a"}}`), 0o644)
	_, errs, code = curate(t, "-w", ws, "import", "manifest", bad)
	if code != 1 || !strings.Contains(errs, "bad.json:1:11: tasks must be a list") || strings.Contains(errs, "manifest.Entry") {
		t.Fatalf("manifest error: %d %q", code, errs)
	}
}
