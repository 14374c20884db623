package pipeline

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Curator fields beside the labels: the problem statement and the tests
// dropped from the task's lists. Changing them rewrites the task dir, so
// the task is validated again.
const (
	FieldInstruction  = "instruction"
	FieldTestsDropped = "tests_dropped"
)

// DroppedTest is a test a curator took out of FAIL_TO_PASS or
// PASS_TO_PASS, and why (environment-dependent, over-specified...).
type DroppedTest struct {
	Test   string `json:"test"`
	List   string `json:"list"` // FAIL_TO_PASS or PASS_TO_PASS
	Reason string `json:"reason"`
}

// DroppedTests reads Labels.TestsDropped ("" = none).
func (l Labels) DroppedTests() []DroppedTest {
	var out []DroppedTest
	if l.TestsDropped != "" {
		_ = json.Unmarshal([]byte(l.TestsDropped), &out) // normalised on write
	}
	return out
}

// EncodeDropped is the canonical text of a dropped-test list (sorted, one
// entry per test and list).
func EncodeDropped(ds []DroppedTest) string {
	if len(ds) == 0 {
		return ""
	}
	seen := map[[2]string]bool{}
	var out []DroppedTest
	for _, d := range ds {
		k := [2]string{d.List, d.Test}
		if !seen[k] {
			seen[k] = true
			out = append(out, d)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].List != out[j].List {
			return out[i].List < out[j].List
		}
		return out[i].Test < out[j].Test
	})
	b, _ := json.Marshal(out)
	return string(b)
}

func normalizeDropped(value string) (string, error) {
	if strings.TrimSpace(value) == "" {
		return "", nil
	}
	var ds []DroppedTest
	if err := json.Unmarshal([]byte(value), &ds); err != nil {
		return "", fmt.Errorf("%s: want a JSON list of {test, list, reason}: %w", FieldTestsDropped, err)
	}
	for _, d := range ds {
		if d.Test == "" || strings.TrimSpace(d.Reason) == "" {
			return "", fmt.Errorf("%s: every dropped test needs its name and a reason", FieldTestsDropped)
		}
		if d.List != "FAIL_TO_PASS" && d.List != "PASS_TO_PASS" {
			return "", fmt.Errorf("%s: list %q: want FAIL_TO_PASS or PASS_TO_PASS", FieldTestsDropped, d.List)
		}
	}
	return EncodeDropped(ds), nil
}

// Dropped reports whether the curator dropped test from list.
func (l Labels) Dropped(list, test string) bool {
	for _, d := range l.DroppedTests() {
		if d.List == list && d.Test == test {
			return true
		}
	}
	return false
}

// Keep splits tests, a list a gold run found, into those the curator
// kept and those dropped from list: a validation after a drop finds the
// dropped tests again, and the curator's word stands.
func (l Labels) Keep(list string, tests []string) (kept, dropped []string) {
	for _, n := range tests {
		if l.Dropped(list, n) {
			dropped = append(dropped, n)
		} else {
			kept = append(kept, n)
		}
	}
	return kept, dropped
}
