package pipeline

// SWEBenchInstance is a task as a SWE-bench record (formats.md §2), as the
// builder writes it beside a task and the exporter writes it as JSONL.
// FAIL_TO_PASS and PASS_TO_PASS stay empty until validation fills them.
type SWEBenchInstance struct {
	InstanceID       string `json:"instance_id"`
	Repo             string `json:"repo"`
	BaseCommit       string `json:"base_commit"`
	Patch            string `json:"patch"`
	TestPatch        string `json:"test_patch"`
	ProblemStatement string `json:"problem_statement"`
	// Interface and Requirements are SWE-bench Pro's sections: the public
	// names the tests use, and the behaviour the statement requires.
	Interface              string   `json:"interface,omitempty"`
	Requirements           string   `json:"requirements,omitempty"`
	HintsText              string   `json:"hints_text"`
	CreatedAt              string   `json:"created_at"`
	Version                string   `json:"version"`
	FailToPass             []string `json:"FAIL_TO_PASS"`
	PassToPass             []string `json:"PASS_TO_PASS"`
	EnvironmentSetupCommit string   `json:"environment_setup_commit"`
	Difficulty             string   `json:"difficulty,omitempty"`
	// The curator's review, on export (absent when not reviewed).
	ReviewColumns
}
