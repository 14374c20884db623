package parse

import (
	"strings"
	"testing"
)

const validCTRF = `{"reportFormat":"CTRF","specVersion":"1.0.0","generatedBy":"curate",
 "results":{"tool":{"name":"pytest"},
  "summary":{"tests":3,"passed":1,"failed":1,"skipped":0,"pending":0,"other":1,"start":1,"stop":2},
  "tests":[{"name":"t.py::a","status":"passed","duration":1,"rawStatus":"PASSED"},
           {"name":"t.py::b","status":"failed","duration":0,"rawStatus":"ERROR"},
           {"name":"t.py::c","status":"other","duration":0,"rawStatus":"XFAIL","suite":["t.py"]}]}}`

func TestCTRFReadsRawStatus(t *testing.T) {
	r, err := CTRF([]byte(validCTRF))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Status{"t.py::a": Passed, "t.py::b": Error, "t.py::c": XFail}
	for k, v := range want {
		if r.Tests[k] != v {
			t.Errorf("%s: %s, want %s", k, r.Tests[k], v)
		}
	}
	if !r.Ran || r.Framework != "ctrf" {
		t.Errorf("report %+v", r)
	}
}

// Each case breaks one rule of the CTRF schema.
func TestCheckCTRFRejects(t *testing.T) {
	cases := []struct{ from, to, want string }{
		{`"reportFormat":"CTRF"`, `"reportFormat":"JSON"`, "$.reportFormat"},
		{`"specVersion":"1.0.0"`, `"specVersion":"1.0"`, "$.specVersion"},
		{`"specVersion":"1.0.0",`, ``, `"specVersion" is required`},
		{`"generatedBy":"curate",`, `"generatedBy":"curate","colour":"red",`, `"colour" is not a CTRF property`},
		{`"tool":{"name":"pytest"}`, `"tool":{"name":""}`, "$.results.tool.name: must not be empty"},
		{`"tool":{"name":"pytest"}`, `"tool":{"name":"pytest","os":"x"}`, `"os" is not a CTRF property`},
		{`"start":1,`, ``, `"start" is required`},
		{`"stop":2`, `"stop":2.5`, "$.results.summary.stop: 2.5 is not an integer"},
		{`"status":"passed"`, `"status":"ok"`, "$.results.tests[0].status"},
		{`"duration":1,`, ``, `"duration" is required`},
		{`"duration":1,`, `"duration":"1",`, "$.results.tests[0].duration: want an integer"},
		{`"suite":["t.py"]`, `"suite":[]`, "suite: must have at least one item"},
		{`"tests":3`, `"tests":4`, "the report lists 3 tests"},
		{`"passed":1`, `"passed":2`, "summary.passed: 2, but 1 tests"},
		{`"name":"t.py::a"`, `"name":""`, "tests[0].name: must not be empty"},
	}
	if err := CheckCTRF([]byte(validCTRF)); err != nil {
		t.Fatalf("valid report refused: %v", err)
	}
	for _, c := range cases {
		doc := strings.Replace(validCTRF, c.from, c.to, 1)
		if doc == validCTRF {
			t.Fatalf("case %q does not change the document", c.from)
		}
		err := CheckCTRF([]byte(doc))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q -> %q: err %v, want %q", c.from, c.to, err, c.want)
		}
	}
	for _, bad := range []string{"", "[]", "null", `{"results":1}`} {
		if CheckCTRF([]byte(bad)) == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func FuzzCTRF(f *testing.F) {
	f.Add([]byte(validCTRF))
	f.Add([]byte(`{"reportFormat":"CTRF"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := CTRF(data)
		if err == nil && (r == nil || !r.Ran) {
			t.Fatal("accepted report without results")
		}
	})
}
