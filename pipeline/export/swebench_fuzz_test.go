package export

import (
	"bytes"
	"curate/pipeline"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzSWEBenchRecord feeds arbitrary task-dir records (a stranger's
// swebench.json) to the SWE-bench export: an error or one valid JSON line.
func FuzzSWEBenchRecord(f *testing.F) {
	for _, s := range []string{`{"FAIL_TO_PASS":"[\"a\"]","PASS_TO_PASS":["b"]}`, `{"fail_to_pass":[1,"x",null]}`, `[]`, `{"patch":7}`, `{`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in := testInput(t, 1, true)
		if err := os.WriteFile(filepath.Join(in.Selected[0].Task.TaskDir, "swebench.json"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := writeSWEBench(&buf, in); err != nil {
			if !strings.Contains(err.Error(), "swebench.json") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		var inst pipeline.SWEBenchInstance
		if err := json.Unmarshal(bytes.TrimSpace(buf.Bytes()), &inst); err != nil || inst.FailToPass == nil || inst.PassToPass == nil {
			t.Fatalf("bad line %q: %v", buf.String(), err)
		}
	})
}
