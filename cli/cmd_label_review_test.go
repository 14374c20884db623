package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// A review set in one command is one undo step, shows in history, filters
// with the same names and is refused with one message when out of range.
func TestLabelReview(t *testing.T) {
	t.Setenv("USER", "ann")
	ws := demoWorkspace(t)
	code, out, errs := cli(t, "-w", ws, "label", "sgt-008", "--underspecified", "2", "--false-negative", "0",
		"--fix-time", "15m-1h", "--comment", "issue names no file")
	if code != 0 {
		t.Fatal(errs)
	}
	if !strings.Contains(out, "5 change(s) on 1 task(s)") {
		t.Fatalf("label output: %s", out)
	}
	var one map[string]any
	_, out, _ = cli(t, "-w", ws, "show", "sgt-008", "--json")
	json.Unmarshal([]byte(out), &one)
	if one["review"] != "flagged" || one["underspecified"] != 2.0 || one["false_negative"] != 0.0 ||
		one["fix_time"] != "15m-1h" || one["review_comment"] != "issue names no file" || one["reviewer"] != "ann" {
		t.Fatalf("show --json: %v", one)
	}
	for expr, want := range map[string]int{"review=flagged": 1, "underspecified>=2": 1, "false_negative<=0": 1,
		"fix_time=15m-1h": 1, "fix_time=1h-4h": 0, "review=reviewed": 0} {
		_, out, errs = cli(t, "-w", ws, "list", "--filter", expr, "--json")
		var got []map[string]any
		if err := json.Unmarshal([]byte(out), &got); err != nil || len(got) != want {
			t.Errorf("filter %s: %d tasks (%v %s), want %d", expr, len(got), err, errs, want)
		}
	}
	_, out, _ = cli(t, "-w", ws, "history", "sgt-008")
	for _, field := range []string{"underspecified", "false_negative", "fix_time", "review_comment", "reviewer"} {
		if !strings.Contains(out, field+":") {
			t.Errorf("history lacks %s:\n%s", field, out)
		}
	}
	if code, _, errs := cli(t, "-w", ws, "undo"); code != 0 {
		t.Fatal(errs)
	}
	_, out, _ = cli(t, "-w", ws, "show", "sgt-008", "--json")
	one = nil
	json.Unmarshal([]byte(out), &one)
	if one["review"] != "unreviewed" || one["reviewer"] != nil {
		t.Fatalf("one undo should revert the whole review: %v", one)
	}

	// A bulk review by filter, then values out of range.
	_, out, errs = cli(t, "-w", ws, "label", "--filter", "benchmark=ccb_dibench language=csharp", "--fix-time", "<15m")
	if !strings.Contains(out, "on 10 task(s)") {
		t.Fatalf("bulk review: %s %s", out, errs)
	}
	for _, c := range [][]string{
		{"--underspecified", "4", `underspecified must be 0, 1, 2 or 3, not "4"`},
		{"--false-negative", "high", `false_negative must be 0, 1, 2 or 3, not "high"`},
		{"--fix-time", "2h", `fix_time must be one of <15m, 15m-1h, 1h-4h, >4h, not "2h"`},
	} {
		code, _, errs := cli(t, "-w", ws, "label", "sgt-008", c[0], c[1])
		if code == 0 || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c[2]) {
			t.Errorf("%s %s: exit %d, stderr %q", c[0], c[1], code, errs)
		}
	}
}
