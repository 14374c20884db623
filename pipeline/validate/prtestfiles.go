package validate

import (
	"encoding/json"
	"fmt"

	"curate/pipeline/unidiff"
)

// PRTestFiles are the files the task's test patch changes (its SWE-bench
// record's test_patch), nil when the task has no record or the record no
// test patch: gold then cannot tell which tests the PR's files hold.
func PRTestFiles(taskDir string) ([]string, error) {
	path, data, err := readSWEBenchRecord(taskDir)
	if path == "" || err != nil {
		return nil, err
	}
	var rec struct {
		TestPatch string `json:"test_patch"`
	}
	if err := json.Unmarshal(data, &rec); err != nil {
		return nil, fmt.Errorf("%s: not a SWE-bench record: %w", path, err)
	}
	files, err := unidiff.Stat(path+": test_patch", rec.TestPatch)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, f := range files {
		out = append(out, f.Name())
	}
	return out, nil
}

// prTestFileOf says whether a test id may live in one of the gold job's
// PR test files; nil for other modes and when the files are unknown (said
// in the log).
func prTestFileOf(job Job, log interface{ Line(string) }) func(id string) bool {
	if job.Mode != ModeGold {
		return nil
	}
	files, err := PRTestFiles(job.TaskDir)
	if err != nil {
		log.Line("curate: note: the PR's test files are unknown, so every test missing on the bug counts as failing there: " + err.Error())
	}
	if len(files) == 0 {
		return nil
	}
	return func(id string) bool {
		for _, f := range files {
			if TestMayLiveIn(f, id, job.Repo) {
				return true
			}
		}
		return false
	}
}
