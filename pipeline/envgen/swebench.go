package envgen

import (
	"encoding/json"
	"time"

	"curate/pipeline"
)

// SWEBenchInstance is the task as a SWE-bench record (formats.md §2).
// FAIL_TO_PASS and PASS_TO_PASS stay empty until validation fills them.
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

// SWEBench renders the record as indented JSON.
func SWEBench(t *pipeline.Task, fix, test []byte, problem string) ([]byte, error) {
	created := t.CreatedAt
	if created.IsZero() {
		created = time.Now()
	}
	inst := SWEBenchInstance{
		InstanceID:             t.ID,
		Repo:                   t.Repo,
		BaseCommit:             t.BaseCommit,
		Patch:                  string(fix),
		TestPatch:              string(test),
		ProblemStatement:       problem,
		CreatedAt:              created.UTC().Format(time.RFC3339),
		FailToPass:             []string{},
		PassToPass:             []string{},
		EnvironmentSetupCommit: t.BaseCommit,
	}
	return json.MarshalIndent(inst, "", "  ")
}
