package cfamily

import (
	"bytes"
	"strings"
	"testing"

	"curate/pipeline/validate/logstream"
	"curate/pipeline/validate/parse"
)

// A DNS library's Oracle failed 397 IPv6 tests the container cannot run.
// Printed on one line, their suite passed the run log's 16 KiB line cap
// and came back cut ("SELECT_ipv6_Default" + "UDP"), so the known-failures
// list held names no run reports and the Oracle never passed. Read back
// through the run log's own line splitter, every name is whole.
func TestCbuildFailingTestsSurviveTheLogLineCapInDocker(t *testing.T) {
	out := runCbuild(t, map[string]string{
		"meson.build": "project('widget', 'c')\nt = executable('t_fail', 't_fail.c')\n" +
			"foreach i : range(300)\n  test('address_families_mock_event_thread_unspecified_family_@0@_ipv6_DefaultUDP'.format(i), t)\nendforeach\n",
		"t_fail.c": "int main(void) { return 1; }\n",
	}, "curate-cbuild configure meson /tmp/b >/dev/null && curate-cbuild build meson /tmp/b >/dev/null && "+
		"curate-cbuild test meson /tmp/b 2>&1 | sed -n '/^curate: failing tests:/,$p'")
	var sink bytes.Buffer
	b := logstream.New(&sink)
	w := b.Writer()
	w.Write([]byte(out))
	w.Flush()
	b.Close()
	rep := parse.ForFormat("ctest", sink.Bytes())
	failing := 0
	for name, st := range rep.Tests {
		if st.Fail() {
			failing++
			if !strings.HasSuffix(name, "_ipv6_DefaultUDP") {
				t.Errorf("a name cut by the log: %q", name)
			}
		}
	}
	if failing != 300 {
		t.Errorf("%d failing tests read back from the log, want 300", failing)
	}
}
