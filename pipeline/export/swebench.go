package export

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"time"
)

// SWEBenchInstance is one line of the SWE-bench JSONL (formats.md §2).
type SWEBenchInstance struct {
	InstanceID             string   `json:"instance_id"`
	Repo                   string   `json:"repo"`
	BaseCommit             string   `json:"base_commit"`
	Patch                  string   `json:"patch"`
	TestPatch              string   `json:"test_patch"`
	ProblemStatement       string   `json:"problem_statement"`
	HintsText              string   `json:"hints_text"`
	CreatedAt              string   `json:"created_at"`
	Version                string   `json:"version"`
	FailToPass             []string `json:"FAIL_TO_PASS"`
	PassToPass             []string `json:"PASS_TO_PASS"`
	EnvironmentSetupCommit string   `json:"environment_setup_commit"`
	Difficulty             string   `json:"difficulty,omitempty"`
}

func writeSWEBench(w io.Writer, in *Input) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, it := range in.Selected {
		t := it.Task
		x := t.Extra
		inst := SWEBenchInstance{
			InstanceID: t.ID, Repo: t.Repo, BaseCommit: firstNonEmpty(str(x, "base_commit"), t.BaseCommit),
			Patch:                  firstNonEmpty(str(x, "patch"), readTaskFile(t.TaskDir, "solution", "fix.patch")),
			TestPatch:              firstNonEmpty(str(x, "test_patch"), readTaskFile(t.TaskDir, "tests", "test.patch")),
			ProblemStatement:       firstNonEmpty(str(x, "problem_statement"), problem(t.Title, t.Body)),
			HintsText:              str(x, "hints_text"),
			CreatedAt:              firstNonEmpty(str(x, "created_at"), t.CreatedAt.UTC().Format(time.RFC3339)),
			Version:                str(x, "version"),
			FailToPass:             list(x, "FAIL_TO_PASS", "fail_to_pass"),
			PassToPass:             list(x, "PASS_TO_PASS", "pass_to_pass"),
			EnvironmentSetupCommit: firstNonEmpty(str(x, "environment_setup_commit"), t.BaseCommit),
			Difficulty:             str(x, "difficulty"),
		}
		if err := enc.Encode(inst); err != nil {
			return err
		}
	}
	return nil
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
