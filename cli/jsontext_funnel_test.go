package cli

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// funnelTextToJSON maps each row `funnel` prints for a repository to its
// key in that repository's --json object; a row the text gains without a
// key here fails the test.
var funnelTextToJSON = map[string]string{
	"mined": "mined", "passed the filter": "passed_filter", "built": "built", "NOP 0": "nop_0", "Oracle 1": "oracle_1",
	">=1 FAIL_TO_PASS": "fail_to_pass", "valid": "valid", "no_fail_to_pass": "no_fail_to_pass.count",
	"not validated": "not_validated", "unbuilt": "unbuilt", "built at snapshot": "built_at_snapshot", "env check": "env_check",
}

// `funnel --json` carries every row the text prints, with the same count.
func TestFunnelJSONCarriesWhatTextPrints(t *testing.T) {
	root := demoWorkspace(t)
	code, text, errs := cli(t, "-w", root, "funnel", "--repo", "acme/calc")
	if code != 0 {
		t.Fatal(errs)
	}
	code, js, errs := cli(t, "-w", root, "funnel", "--repo", "acme/calc", "--json")
	if code != 0 {
		t.Fatal(errs)
	}
	var out struct {
		Repos []map[string]any `json:"repos"`
	}
	if err := json.Unmarshal([]byte(js), &out); err != nil || len(out.Repos) != 1 {
		t.Fatalf("funnel --json: %v (%d repos)\n%s", err, len(out.Repos), js)
	}
	repo := out.Repos[0]
	row := regexp.MustCompile(`^  (\S.*?)\s{2,}(\d+)`)
	rows := 0
	for _, l := range strings.Split(text, "\n") {
		m := row.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		rows++
		key, ok := funnelTextToJSON[m[1]]
		if !ok {
			if classCount(repo, m[1]) < 0 {
				t.Errorf("funnel prints %q, which has no JSON key in the test's table and is no failure class in --json", m[1])
			}
			continue
		}
		want, _ := strconv.Atoi(m[2])
		if got := jsonCount(repo, key); got != want {
			t.Errorf("funnel prints %s %d, --json %s is %d", m[1], want, key, got)
		}
	}
	if rows < 8 {
		t.Fatalf("read only %d rows from\n%s", rows, text)
	}
}

// jsonCount reads a number at a dotted key ("no_fail_to_pass.count"), -1
// when missing.
func jsonCount(obj map[string]any, key string) int {
	var v any = obj
	for _, k := range strings.Split(key, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return -1
		}
		v = m[k]
	}
	if f, ok := v.(float64); ok {
		return int(f)
	}
	return -1
}

// classCount is a failure class's count in the repository's failures or
// not_built rows, -1 when absent.
func classCount(repo map[string]any, class string) int {
	for _, list := range []string{"failures", "not_built"} {
		rows, _ := repo[list].([]any)
		for _, r := range rows {
			if m, ok := r.(map[string]any); ok && m["class"] == class {
				return jsonCount(m, "count")
			}
		}
	}
	return -1
}
