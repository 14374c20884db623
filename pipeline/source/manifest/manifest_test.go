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
		{`{"tasks": [{"task_id": 5}]}`, "m.json:1:24: tasks.task_id must be string, not number"},
		{`[]`, "must be"},
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
	if bad[0].Error() != "m.json: tasks[2]: no task_id" || !strings.Contains(bad[1].Error(), "tasks[3]: task \"a\" listed twice") {
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
