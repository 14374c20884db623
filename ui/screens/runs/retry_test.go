package runs

import (
	"context"
	"strings"
	"testing"
	"time"

	"curate/pipeline"
	"curate/ui/uitest"
)

// A run retried on another engine shows the sentence `curate runs show`
// prints (pipeline.RetrySentence): at the end of its row, and in full
// under the log while it is selected.
func TestRunsShowRetrySentence(t *testing.T) {
	a, ws := runsApp(t, &uitest.ScriptRunner{})
	reward := 0.0
	r := &pipeline.Run{ID: "r261125-101010-abcd", TaskID: "fixture-calc", Mode: "nop", Outcome: pipeline.OutcomeOK, Reward: &reward,
		DockerHost: "unix:///var/run/docker.sock", StartedAt: time.Now().UTC(), FinishedAt: time.Now().UTC(),
		Retry: pipeline.RetrySentence("unix:///var/run/docker.sock", "tcp://ci-2:2376")}
	if err := ws.Store.SaveRun(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	a.Current(t, "fixture-calc") // a visit reloads the stored runs
	a.Press(t, "G")              // the retried run, listed last
	want := "retried on unix:///var/run/docker.sock after tcp://ci-2:2376 stopped answering"
	v := uitest.Plain(a.Screen.View())
	lines := strings.Split(strings.TrimRight(v, "\n"), "\n")
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, want+" · v validate") {
		t.Fatalf("the selected retried run's sentence is not under its log: %q\n%s", last, v)
	}
	if !strings.Contains(v, "r261125-101010-abcd fixture-calc") || !strings.Contains(v, "ok 0            (retried on unix:///var/run/docker.sock") {
		t.Fatalf("the retried run's row lacks its note:\n%s", v)
	}
}
