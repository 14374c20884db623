package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"curate/pipeline"
)

// sameWhenEachModeRunsAlone validates the workspace's tasks again one mode
// per command, as curate did before a batch shared its executions: NOP,
// Oracle, and gold running the buggy and fixed states itself (five
// executions where ids are not plain names). Each verdict, reward and
// list must be the one the shared batch (two executions per task) gave.
func sameWhenEachModeRunsAlone(t *testing.T, root string, shared []pipeline.Run) {
	t.Helper()
	want := map[string]pipeline.Run{}
	for _, r := range shared {
		want[r.TaskID+" "+r.Mode] = r
	}
	for _, mode := range []string{"nop", "oracle", "gold"} {
		code, out, errs := cli(t, "-w", root, "validate", "--all", "--json", "--mode", mode, "--concurrency", "2")
		var runs []pipeline.Run
		if err := json.Unmarshal([]byte(out), &runs); err != nil || code != 0 {
			t.Fatalf("validate --mode %s: exit %d %v\n%s\n%s", mode, code, err, out, errs)
		}
		for _, r := range runs {
			w, ok := want[r.TaskID+" "+r.Mode]
			switch {
			case !ok:
				t.Errorf("%s %s: no run in the shared batch", r.TaskID, r.Mode)
			case r.Outcome != w.Outcome || rewardOf(r) != rewardOf(w) ||
				strings.Join(r.FailToPass, ",") != strings.Join(w.FailToPass, ",") || strings.Join(r.PassToPass, ",") != strings.Join(w.PassToPass, ","):
				t.Errorf("%s %s alone: %s reward %s F2P %v P2P %v; shared: %s reward %s F2P %v P2P %v", r.TaskID, mode,
					r.Outcome, rewardOf(r), r.FailToPass, r.PassToPass, w.Outcome, rewardOf(w), w.FailToPass, w.PassToPass)
			}
			if mode != "gold" {
				continue
			}
			// Alone, gold ran both states itself; shared, it read them.
			alone, _ := os.ReadFile(r.LogPath)
			batch, _ := os.ReadFile(w.LogPath)
			if strings.Contains(string(alone), readShared) {
				t.Errorf("%s gold alone read another run's output:\n%s", r.TaskID, alone)
			}
			if strings.Count(string(batch), readShared) != 2 {
				t.Errorf("%s gold in the shared batch ran a state NOP or Oracle had run:\n%s", r.TaskID, batch)
			}
		}
		if len(runs) != len(shared)/3 {
			t.Errorf("validate --mode %s: %d runs, want %d", mode, len(runs), len(shared)/3)
		}
	}
}

// readShared is gold's log line for a state it read from NOP or Oracle.
const readShared = "the tests' output of run"

func rewardOf(r pipeline.Run) string {
	if r.Reward == nil {
		return "none"
	}
	return fmt.Sprint(*r.Reward)
}
