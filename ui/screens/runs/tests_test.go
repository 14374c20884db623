package runs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"curate/pipeline"
	"curate/ui/uitest"
)

// A finished run's log shows as its tests (status, duration, name),
// failures first, read from go test -json; T shows the raw log and back.
func TestRunLogAsTestList(t *testing.T) {
	a, _ := runsApp(t, &uitest.ScriptRunner{Lines: uitest.Numbered(3)})
	s := a.Screen.(*Model)
	log := filepath.Join(t.TempDir(), "run.log")
	os.WriteFile(log, []byte(`curate: gold acme__mathx-1
{"Action":"run","Package":"example.com/mathx","Test":"TestAdd"}
{"Action":"pass","Package":"example.com/mathx","Test":"TestAdd","Elapsed":0.01}
{"Action":"run","Package":"example.com/mathx","Test":"TestDiv"}
{"Action":"output","Package":"example.com/mathx","Test":"TestDiv","Output":"RAW-OUTPUT-LINE\n"}
{"Action":"fail","Package":"example.com/mathx","Test":"TestDiv","Elapsed":1.25}
`), 0o644)
	e := &runEntry{key: "rt", state: runFinished, run: pipeline.Run{ID: "rt", TaskID: "fixture-calc", Mode: "nop", Outcome: pipeline.OutcomeOK, LogPath: log}}
	s.entries = append([]*runEntry{e}, s.entries...)
	s.list.Cursor = 0
	if s.openLog() == nil { // asks for the log's tail and its test list
		t.Fatal("no command to read the log")
	}
	s.Update(s.loadTestsOf(e)()) // the parse, run here as the program would
	v := uitest.Plain(a.Screen.View())
	div, add := strings.Index(v, "FAILED     1.25s  example.com/mathx.TestDiv"), strings.Index(v, "PASSED     0.01s  example.com/mathx.TestAdd")
	if div < 0 || add < 0 || div > add || !strings.Contains(v, "2 tests (") {
		t.Fatalf("test list (failures first):\n%s", v)
	}
	a.Press(t, "T")
	if v := uitest.Plain(a.Screen.View()); strings.Contains(v, "FAILED     1.25s") {
		t.Fatalf("T: still the test list:\n%s", v)
	}
	a.Press(t, "T")
	if v := uitest.Plain(a.Screen.View()); !strings.Contains(v, "FAILED     1.25s") {
		t.Fatalf("T again: no test list:\n%s", v)
	}
}
