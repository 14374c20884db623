package export

import (
	"curate/pipeline"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

func writeSWEBench(w io.Writer, in *Input) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, it := range in.Selected {
		t := it.Task
		rec, err := taskRecord(t.TaskDir)
		if err != nil {
			return err
		}
		// the task dir's own record (kept current by validation) wins over
		// the columns an import kept, which win over what is computed here
		get := func(key string) string { return firstNonEmpty(str(rec, key), str(t.Extra, key)) }
		lists := func(keys ...string) []string {
			for _, m := range []map[string]any{rec, t.Extra} {
				for _, k := range keys {
					if _, ok := m[k]; ok {
						return list(m, keys...)
					}
				}
			}
			return []string{}
		}
		inst := pipeline.SWEBenchInstance{
			InstanceID: firstNonEmpty(get("instance_id"), t.ID), Repo: firstNonEmpty(get("repo"), t.Repo),
			BaseCommit:             firstNonEmpty(get("base_commit"), t.BaseCommit),
			Patch:                  firstNonEmpty(get("patch"), readTaskFile(t.TaskDir, "solution", "fix.patch")),
			TestPatch:              firstNonEmpty(get("test_patch"), readTaskFile(t.TaskDir, "tests", "test.patch")),
			ProblemStatement:       firstNonEmpty(get("problem_statement"), problem(t.Title, t.Body)),
			Interface:              get("interface"),
			Requirements:           get("requirements"),
			HintsText:              get("hints_text"),
			CreatedAt:              firstNonEmpty(get("created_at"), t.CreatedAt.UTC().Format(time.RFC3339)),
			Version:                get("version"),
			FailToPass:             lists("FAIL_TO_PASS", "fail_to_pass"),
			PassToPass:             lists("PASS_TO_PASS", "pass_to_pass"),
			EnvironmentSetupCommit: firstNonEmpty(get("environment_setup_commit"), t.BaseCommit),
			Difficulty:             get("difficulty"),
			ReviewColumns:          t.Labels.Columns(),
		}
		if smith := swesmithRecord(t, inst); smith != nil {
			if err := enc.Encode(smith); err != nil {
				return err
			}
			continue
		}
		if err := enc.Encode(inst); err != nil {
			return err
		}
	}
	return nil
}

// recordFiles are the task-dir files that may hold the task's SWE-bench
// instance; validation writes FAIL_TO_PASS and PASS_TO_PASS into them.
var recordFiles = []string{"swebench.json", "instance.json"}

// maxRecord bounds a record read from a stranger's task dir.
const maxRecord = 64 << 20

// taskRecord reads the task dir's SWE-bench record, nil when it has none.
func taskRecord(dir string) (map[string]any, error) {
	for _, name := range recordFiles {
		if dir == "" {
			return nil, nil
		}
		path := filepath.Join(dir, name)
		fi, err := os.Lstat(path)
		if err != nil || !fi.Mode().IsRegular() {
			continue // missing, or a link that could point outside the task
		}
		if fi.Size() > maxRecord {
			return nil, fmt.Errorf("export swebench: %s: %d bytes, larger than %d", path, fi.Size(), maxRecord)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("export swebench: %w", err)
		}
		var rec map[string]any
		if err := json.Unmarshal(data, &rec); err != nil {
			return nil, fmt.Errorf("export swebench: %s: not a JSON object: %w", path, err)
		}
		return rec, nil
	}
	return nil, nil
}

func problem(title, body string) string {
	switch {
	case title == "":
		return body
	case body == "":
		return title
	}
	return title + "\n\n" + body
}

func firstNonEmpty(xs ...string) string {
	for _, x := range xs {
		if x != "" {
			return x
		}
	}
	return ""
}

func str(m map[string]any, key string) string {
	if s, ok := m[key].(string); ok {
		return s
	}
	return ""
}

// list reads a test list stored as a JSON list or a JSON-encoded string.
func list(m map[string]any, keys ...string) []string {
	for _, k := range keys {
		switch v := m[k].(type) {
		case []any:
			out := []string{}
			for _, e := range v {
				if s, ok := e.(string); ok {
					out = append(out, s)
				}
			}
			return out
		case []string:
			return v
		case string:
			var out []string
			if json.Unmarshal([]byte(v), &out) == nil && out != nil {
				return out
			}
		}
	}
	return []string{}
}

func readTaskFile(dir string, parts ...string) string {
	if dir == "" {
		return ""
	}
	path := filepath.Join(append([]string{dir}, parts...)...)
	if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
		return "" // missing, or a link that could point outside the task
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return string(data)
}
