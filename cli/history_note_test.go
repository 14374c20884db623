package cli

import (
	"strings"
	"testing"
)

// A label's reason (--note with other changes) stays with it through undo
// and redo: history shows it on the label and on its redo.
func TestLabelReasonSurvivesRedo(t *testing.T) {
	ws, _ := minedCalc(t)
	if code, _, e := cli(t, "-w", ws, "label", "acme__calc-1", "--difficulty", "hard", "--note", "checked by hand"); code != 0 {
		t.Fatal(e)
	}
	for _, step := range []string{"undo", "redo"} {
		if code, _, e := cli(t, "-w", ws, step); code != 0 {
			t.Fatalf("%s: %s", step, e)
		}
	}
	_, out, _ := cli(t, "-w", ws, "history", "acme__calc-1")
	var redo string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "[redo of batch") {
			redo = l
		}
	}
	if !strings.Contains(redo, "checked by hand") {
		t.Errorf("the redo lost the reason:\n%s", out)
	}
	if _, show, _ := cli(t, "-w", ws, "show", "acme__calc-1"); !strings.Contains(show, "hard") {
		t.Errorf("show after redo:\n%s", show)
	}
}
