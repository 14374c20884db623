package export

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"
)

// A reviewed task carries its review into every format; an unreviewed one
// leaves the keys out (JSON) or empty (CSV); the report counts both.
func TestReviewExported(t *testing.T) {
	in := testInput(t, 3, false)
	l := &in.Selected[0].Task.Labels
	l.Underspecified, l.FalseNegative, l.FixTime, l.ReviewComment, l.Reviewer = "2", "0", "1h-4h", "=vague", "ann"
	l1 := &in.Selected[1].Task.Labels
	l1.Underspecified, l1.FalseNegative, l1.FixTime, l1.Reviewer = "0", "1", "<15m", "bob"

	var buf bytes.Buffer
	if err := writeManifest(&buf, in); err != nil {
		t.Fatal(err)
	}
	var doc struct{ Tasks []map[string]any }
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	first, third := doc.Tasks[0], doc.Tasks[2]
	if first["underspecified"] != 2.0 || first["false_negative"] != 0.0 || first["fix_time"] != "1h-4h" ||
		first["review_comment"] != "=vague" || first["reviewer"] != "ann" {
		t.Errorf("manifest task %v", first)
	}
	for _, k := range []string{"underspecified", "false_negative", "fix_time", "review_comment", "reviewer"} {
		if _, ok := third[k]; ok {
			t.Errorf("unreviewed task has %s in the manifest", k)
		}
	}

	buf.Reset()
	if err := writeSWEBench(&buf, in); err != nil {
		t.Fatal(err)
	}
	var inst map[string]any
	if err := json.Unmarshal([]byte(strings.SplitN(buf.String(), "\n", 2)[0]), &inst); err != nil {
		t.Fatal(err)
	}
	if inst["underspecified"] != 2.0 || inst["false_negative"] != 0.0 || inst["fix_time"] != "1h-4h" || inst["reviewer"] != "ann" {
		t.Errorf("swebench record %v", inst)
	}

	buf.Reset()
	if err := writeCSV(&buf, in); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	head, row, empty := rows[0], rows[1], rows[3]
	got := map[string]string{}
	for i, h := range head {
		got[h] = row[i]
	}
	if got["underspecified"] != "2" || got["false_negative"] != "0" || got["fix_time"] != "1h-4h" ||
		got["review_comment"] != "'=vague" || got["reviewer"] != "ann" {
		t.Errorf("csv row %v", got)
	}
	if strings.Join(empty[len(empty)-5:], "") != "" {
		t.Errorf("unreviewed csv row %v", empty)
	}

	buf.Reset()
	if err := writeReport(&buf, in); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	for _, want := range []string{"## Human Review", "2 of 3 selected tasks were reviewed", "1 are flagged",
		"| 0 | 1 | 1 |", "| 2 | 1 | 0 |", "| 1h-4h | 1 |", "| <15m | 1 |", "| >4h | 0 |"} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q", want)
		}
	}
}
