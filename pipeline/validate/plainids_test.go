package validate

import (
	"testing"

	"curate/pipeline/validate/parse"
)

// The gold run's second run of the fixed state took a third of oatpp's
// 23-minute gold runs (one CTest test, oatppAllTests) to look for ids
// that change between runs; plain names cannot. Ids as the parsers read
// them from real suites.
func TestPlainIDsNeedNoSecondRun(t *testing.T) {
	for _, tc := range []struct {
		ids   []string
		plain bool
	}{
		{[]string{"oatppAllTests"}, true},
		{[]string{"unittest", "tutorial", "benchmark"}, true},
		{[]string{"JsonTest.Parse", "Node/Sequence.Iterator"}, true},
		{[]string{"TestCommand/flag_parsing"}, true},
		{[]string{"unittest", "test_utf8"}, false},                          // a digit
		{[]string{"Suite/Param.Case/0"}, false},                             // GoogleTest's parameter index
		{[]string{"t.py::test_stamp[2026-11-25T21:04:07]"}, false},          // a time
		{[]string{"gen[0x7f1a]"}, false},                                    // an address
		{[]string{"t.py::test_x[/tmp/tmpkjzqxa]"}, false},                   // a value
		{[]string{"TestWrite/tmp/TestWritexyz/a"}, false},                   // a temporary path
		{[]string{"tests/test_a.py::TestA::test_b", "with = value"}, false}, // a value
		{nil, false}, // nothing ran: no ids to trust
	} {
		rep := &parse.Report{Tests: map[string]parse.Status{}}
		for _, id := range tc.ids {
			rep.Tests[id] = parse.Passed
		}
		if got := plainIDs(rep); got != tc.plain {
			t.Errorf("%q: plain %v, want %v", tc.ids, got, tc.plain)
		}
	}
}
