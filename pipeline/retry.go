package pipeline

import "fmt"

// RetrySentence says how a run moved engines: the validation queue stores
// it on the run (Run.Retry) and every face shows it as it is (`curate
// validate`'s line, `curate runs show`, the workbench's Runs and Task
// screens), so the wording lives here only.
func RetrySentence(host, from string) string {
	return fmt.Sprintf("retried on %s after %s stopped answering", host, from)
}

// RetryNote is the run's retry sentence in parentheses after a space, to
// follow its detail on one line; "" when it ran where it started.
func (r *Run) RetryNote() string {
	if r.Retry == "" {
		return ""
	}
	return " (" + r.Retry + ")"
}
