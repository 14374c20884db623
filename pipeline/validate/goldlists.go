package validate

import (
	"fmt"
	"sort"
	"strings"

	"curate/pipeline"
	"curate/pipeline/validate/parse"
)

// gold computes FAIL_TO_PASS and PASS_TO_PASS over the attempts: a test
// whose status differs between runs of one state is flaky, and one whose
// id is missing from some runs of a state is unstable (its name carries a
// time, a random value or an address); either is in neither list.
//
// A test missing on the bug fails there (formats.md: the suite crashed)
// when the bug ran no test at all, when a test of its group (its id up to
// the last '.': a Unity file, a Catch2 binary) ran there (it is new, or its
// file did not compile into a binary that ran), or when inPRFile says it
// may live in a test file the PR changes. Missing otherwise, with its whole
// group, it is in neither list: a harness that stops at its first failing
// script (rake) never ran it, and SWE-bench, which runs only the PR's test
// files, would not have either. inPRFile nil: the PR's test files are
// unknown, and every missing test fails on the bug.
func gold(as []attempt, run *pipeline.Run, inPRFile func(id string) bool) {
	var buggyRuns, fixedRuns []*parse.Report
	for _, a := range as {
		buggyRuns = append(buggyRuns, a.buggy)
		fixedRuns = append(fixedRuns, a.fixed)
		if a.again != nil {
			fixedRuns = append(fixedRuns, a.again)
		}
	}
	buggy, flakyB, unstableB := merge(buggyRuns)
	fixed, flakyF, unstableF := merge(fixedRuns)
	flaky := union(flakyB, flakyF)
	unstable := union(unstableB, unstableF)
	var f2p, p2p, lost, notRun []string
	ranGroups := map[string]bool{}
	for name := range buggy {
		ranGroups[testGroup(name)] = true
	}
	for name, after := range fixed {
		if flaky[name] || !after.Pass() {
			continue
		}
		before, ran := buggy[name]
		if unstable[name] {
			if !ran || before.Fail() {
				lost = append(lost, name) // would have been FAIL_TO_PASS
			}
			continue
		}
		switch {
		case !ran && len(buggy) > 0 && inPRFile != nil && !ranGroups[testGroup(name)] && !inPRFile(name):
			notRun = append(notRun, name)
		case !ran || before.Fail():
			f2p = append(f2p, name) // failing, erroring or missing (crashed) on the bug
		case before.Pass():
			p2p = append(p2p, name)
		}
	}
	sort.Strings(f2p)
	sort.Strings(p2p)
	run.FailToPass, run.PassToPass = f2p, p2p
	run.Flaky, run.Unstable = sortedKeys(flaky), sortedKeys(unstable)
	passingFix := 0
	for _, s := range fixed {
		if s.Pass() {
			passingFix++
		}
	}
	unstableNote := ""
	if len(run.Unstable) > 0 {
		unstableNote = fmt.Sprintf("; %d unstable test ids left out: %s", len(run.Unstable), strings.Join(firstN(run.Unstable, 3), ", "))
	}
	if len(notRun) > 0 {
		sort.Strings(notRun)
		unstableNote += fmt.Sprintf("; %d tests that did not run on the bug and are not in the PR's test files left out: %s", len(notRun), strings.Join(firstN(notRun, 3), ", "))
	}
	switch {
	case len(run.Flaky) > 0:
		run.Outcome = pipeline.OutcomeFlaky
		run.Detail = fmt.Sprintf("%d tests change status between repeats: %s", len(run.Flaky), strings.Join(firstN(run.Flaky, 5), ", "))
	case len(f2p) > 0:
		run.Outcome = pipeline.OutcomeOK
		run.Detail = fmt.Sprintf("%d FAIL_TO_PASS, %d PASS_TO_PASS", len(f2p), len(p2p)) + unstableNote
	case len(lost) > 0:
		sort.Strings(lost)
		run.Outcome = pipeline.OutcomeFlaky
		run.Detail = fmt.Sprintf("every test that fails before the fix and passes after it has an id that changes between runs (%d: %s)", len(lost), strings.Join(firstN(lost, 3), ", "))
		run.Failure = &pipeline.Failure{Class: pipeline.ClassUnstableTests, Evidence: run.Detail,
			Suggestion: "# the test names carry a time, a random value or an address; give them fixed ids (pytest ids=, a seeded generator) or exclude the task"}
	case passingFix == 0:
		run.Outcome = pipeline.OutcomeOracleFailed
		run.Detail = "no test passes on the fixed state"
	default:
		run.Outcome = pipeline.OutcomeNopPassed
		run.Detail = "no test fails on the buggy state and passes on the fix" + unstableNote
		run.Failure = &pipeline.Failure{Class: pipeline.ClassNoFailToPass, Evidence: stateEvidence(as[len(as)-1])}
	}
}

// merge takes one state's reports across its runs: a test whose status
// differs where it ran is flaky; one that a run with tests lacks is
// unstable.
func merge(reports []*parse.Report) (out map[string]parse.Status, flaky, unstable map[string]bool) {
	out, flaky, unstable = map[string]parse.Status{}, map[string]bool{}, map[string]bool{}
	seen := map[string]int{}
	withTests := 0
	for _, rep := range reports {
		if rep == nil || len(rep.Tests) == 0 {
			continue // a suite that did not start names nothing
		}
		withTests++
		for name, s := range rep.Tests {
			seen[name]++
			if old, ok := out[name]; ok && old != s {
				flaky[name] = true
			}
			out[name] = s
		}
	}
	for name, n := range seen {
		if n != withTests && !flaky[name] {
			unstable[name] = true
		}
	}
	return out, flaky, unstable
}

// testGroup is a test id up to its last '.' (the whole id when it has
// none).
func testGroup(id string) string {
	if i := strings.LastIndex(id, "."); i > 0 {
		return id[:i]
	}
	return id
}

func union(a, b map[string]bool) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

func sortedKeys(m map[string]bool) []string {
	if len(m) == 0 {
		return nil
	}
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
