package manifest

import (
	"os"
	"strings"
	"testing"
)

const file = "../../../testdata/import/manifest/selected_benchmark_tasks.json"

func TestParseFixture(t *testing.T) {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	m, bad, err := Parse(file, data)
	if err != nil || len(bad) > 0 {
		t.Fatalf("err %v bad %v", err, bad)
	}
	if len(m.Tasks) != 4 {
		t.Fatalf("tasks %d", len(m.Tasks))
	}
	tk := Task(m.Tasks[1], file)
	if tk.ID != "sgt-025" || tk.DifficultyImported != "critical" || tk.Benchmark != "ccb_pytorch" || tk.Source != "manifest" ||
		tk.Extra["manifest_mcp_benefit_score"] != 0.85 || tk.Extra["manifest_sdlc_phase"] != "Implementation (bug fix)" {
		t.Fatalf("task %+v", tk)
	}
	sel := Selection(m, file)
	if sel.Name != "selected_benchmark_tasks" || len(sel.Tasks) != 4 || sel.Tasks[0].TaskID != "big-code-k8s-001" || sel.Tasks[3].Rank != 4 ||
		sel.Tasks[0].Rationale == "" || sel.Stats["avg_mcp_benefit_score"] != 0.7931 {
		t.Fatalf("selection %+v", sel)
	}
}

func TestParseBad(t *testing.T) {
	cases := []struct{ in, want string }{
		{"{\n  \"tasks\": [\n    {\"task_id\": \"a\",}\n  ]\n}", "m.json:3:21: invalid character '}'"},
		{`{"metadata": {}}`, "no \"tasks\" list"},
		{`{"tasks": {"task_id": 5}}`, "m.json:1:11: tasks must be a list of task objects"},
		{`[]`, "m.json:1:1: the file must be a JSON object"},
		{`{"metadata": [1]`, "m.json:1:14: metadata must be an object"},
		{`{"tasks": [`, "m.json:1:12: unexpected end of the file"},
		{`{"metadata": {"random_seed": "x"}, "tasks": []}`, "m.json:1:32: metadata.random_seed must be a whole number, not string"},
	}
	for _, c := range cases {
		_, _, err := Parse("m.json", []byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: err %v, want %q", c.in, err, c.want)
		}
	}
	m, bad, err := Parse("m.json", []byte(`{"tasks": [{"task_id": "a"}, {"benchmark": "x"}, {"task_id": "a"}, {"task_id": "b"}]}`))
	if err != nil || len(m.Tasks) != 2 || len(bad) != 2 {
		t.Fatalf("m %+v bad %v err %v", m, bad, err)
	}
	if bad[0].Error() != "m.json:1: tasks[2]: no task_id" || !strings.Contains(bad[1].Error(), "tasks[3]: task \"a\" listed twice") {
		t.Fatalf("bad %v", bad)
	}
}

func FuzzParse(f *testing.F) {
	data, _ := os.ReadFile(file)
	f.Add(data)
	f.Add([]byte(`{"tasks":[{"task_id":""}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, bad, err := Parse("m.json", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "m.json") {
				t.Fatalf("error without file: %v", err)
			}
			return
		}
		for _, e := range m.Tasks {
			if e.TaskID == "" {
				t.Fatal("empty id kept")
			}
		}
		_ = bad
		_ = Selection(m, "m.json")
	})
}

// Hostile entry values are refused one by one with line and key; no
// message names a Go type.
func TestParseRefusesBadValues(t *testing.T) {
	in := `{"tasks": [
  {"task_id": 5},
  {"task_id": "../../evil"},
  {"task_id": "c", "difficulty": 5},
  {"task_id": "d", "mcp_benefit_score": "high"},
  {"task_id": "e", "mcp_breakdown": {"context_complexity": "x"}},
  {"task_id": "f", "category": ["a"]},
  "not an object",
  {"task_id": "ok", "difficulty": "hard", "mcp_benefit_score": 0.5}
]}`
	m, bad, err := Parse("m.json", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Tasks) != 1 || m.Tasks[0].TaskID != "ok" {
		t.Fatalf("tasks %+v", m.Tasks)
	}
	want := []string{
		"m.json:2: tasks[1]: task_id: want a string (got 5)",
		"m.json:3: tasks[2]: task_id: id \"../../evil\" is not usable",
		"m.json:4: tasks[3]: difficulty: want a string (got 5)",
		"m.json:5: tasks[4]: mcp_benefit_score: want a number (got string \"high\")",
		"m.json:6: tasks[5]: mcp_breakdown: want an object",
		"m.json:7: tasks[6]: category: want a string (got a list)",
		"m.json:8: tasks[7]: want a task object",
	}
	if len(bad) != len(want) {
		t.Fatalf("bad = %v", bad)
	}
	for i, w := range want {
		if !strings.HasPrefix(bad[i].Error(), w) {
			t.Errorf("bad[%d] = %q, want prefix %q", i, bad[i], w)
		}
		if strings.Contains(bad[i].Error(), "manifest.") || strings.Contains(bad[i].Error(), "Go value") {
			t.Errorf("bad[%d] names a Go type: %q", i, bad[i])
		}
	}
}
