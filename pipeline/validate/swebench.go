package validate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"curate/internal/atomicfile"
)

// SWEBenchRecordFiles are the task-dir files that may hold the task's
// SWE-bench instance (one JSON object). They sit outside the task digest,
// so recording gold results does not make the runs stale.
var SWEBenchRecordFiles = []string{"swebench.json", "instance.json"}

// UpdateSWEBenchRecord writes FAIL_TO_PASS and PASS_TO_PASS into the task's
// SWE-bench record when it has one, keeping every other field. Datasets
// that store the lists as JSON-encoded strings keep that form.
func UpdateSWEBenchRecord(taskDir string, f2p, p2p []string) error {
	return EditSWEBenchRecord(taskDir, func(rec map[string]json.RawMessage) {
		for key, list := range map[string][]string{"FAIL_TO_PASS": nonNilList(f2p), "PASS_TO_PASS": nonNilList(p2p)} {
			enc, _ := json.Marshal(list)
			if old, ok := rec[key]; ok && bytes.HasPrefix(bytes.TrimSpace(old), []byte(`"`)) {
				enc, _ = json.Marshal(string(enc))
			}
			rec[key] = enc
		}
	})
}

// EditSWEBenchRecord rewrites the task's SWE-bench record, when it has
// one, with edit's changes; every other field is kept.
func EditSWEBenchRecord(taskDir string, edit func(rec map[string]json.RawMessage)) error {
	path, data, err := readSWEBenchRecord(taskDir)
	if path == "" || err != nil {
		return err
	}
	var rec map[string]json.RawMessage
	if err := json.Unmarshal(data, &rec); err != nil {
		return fmt.Errorf("%s: not a JSON object: %w", path, err)
	}
	edit(rec)
	out, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(path, append(out, '\n'), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// readSWEBenchRecord reads the task's SWE-bench record: its path and
// bytes, or "" when it has none.
func readSWEBenchRecord(taskDir string) (string, []byte, error) {
	for _, name := range SWEBenchRecordFiles {
		path := filepath.Join(taskDir, name)
		data, err := os.ReadFile(path)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return path, nil, fmt.Errorf("read %s: %w", path, err)
		}
		return path, data, nil
	}
	return "", nil, nil
}

func nonNilList(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
