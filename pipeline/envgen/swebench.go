package envgen

import (
	"encoding/json"
	"time"

	"curate/pipeline"
)

// SWEBench renders the record as indented JSON.
func SWEBench(t *pipeline.Task, fix, test []byte, problem string) ([]byte, error) {
	created := t.CreatedAt
	if created.IsZero() {
		created = time.Now()
	}
	inst := pipeline.SWEBenchInstance{
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
