package validate

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"curate/pipeline"
)

// forgiveKnownFlaky settles a gold run that is flaky only because of tests
// the task already leaves out of its reward (its known failures, which
// include the tests an earlier gold run found flaky: app.adoptKnownFailures).
// formats.md puts a flaky test in neither list; once test.sh does not let
// it decide the reward either, the FAIL_TO_PASS that never changed make
// the task valid. A flaky test the task does not list keeps it flaky.
func forgiveKnownFlaky(run *pipeline.Run, known map[string]bool) {
	if run.Outcome != pipeline.OutcomeFlaky || run.Failure != nil || len(run.FailToPass) == 0 || len(run.Flaky) == 0 {
		return
	}
	for _, name := range run.Flaky {
		if !known[name] {
			return
		}
	}
	run.Outcome = pipeline.OutcomeOK
	run.Detail = fmt.Sprintf("%d FAIL_TO_PASS, %d PASS_TO_PASS; %d flaky tests left out, as the task's known failures: %s",
		len(run.FailToPass), len(run.PassToPass), len(run.Flaky), strings.Join(firstN(run.Flaky, 3), ", "))
}

// readKnownFailures is the task's pipeline.KnownFailuresFile as a set;
// empty when it has none, or when it is a link or not a regular file (a
// task directory may come from anyone). Only its first MiB is read.
func readKnownFailures(taskDir string) map[string]bool {
	out := map[string]bool{}
	path := filepath.Join(taskDir, pipeline.KnownFailuresFile)
	if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
		return out
	}
	f, err := os.Open(path)
	if err != nil {
		return out
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, 1<<20))
	if err != nil {
		return out
	}
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out[l] = true
		}
	}
	return out
}
