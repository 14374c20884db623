package parse

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// CTRF reads a CTRF report (ctrf.io; generated tasks write one to
// /logs/verifier/ctrf.json). Ids are the tests' names; a rawStatus in
// SWE-bench's words (PASSED, FAILED, ERROR, SKIPPED, XFAIL) wins over the
// CTRF status, which cannot tell an error from a failure. A report that
// does not pass CheckCTRF is an error: the caller reads the log instead.
func CTRF(data []byte) (*Report, error) {
	if err := CheckCTRF(data); err != nil {
		return nil, err
	}
	var doc struct {
		Results struct {
			Tests []struct {
				Name      string `json:"name"`
				Status    string `json:"status"`
				RawStatus string `json:"rawStatus"`
			} `json:"tests"`
		} `json:"results"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	r := &Report{Framework: "ctrf", Ran: true}
	for _, t := range doc.Results.Tests {
		r.set(t.Name, ctrfStatus(t.Status, t.RawStatus))
	}
	return r, nil
}

func ctrfStatus(status, raw string) Status {
	switch s := Status(strings.ToUpper(raw)); s {
	case Passed, Failed, Error, Skipped, XFail:
		return s
	}
	switch status {
	case "passed":
		return Passed
	case "failed":
		return Failed
	default: // skipped, pending, other
		return Skipped
	}
}

// CheckCTRF checks a document against the CTRF JSON schema (the
// specification's required fields, types, enums and closed objects),
// plus that the summary's counts match the tests. The error names the
// first problem by its JSON path.
func CheckCTRF(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return fmt.Errorf("ctrf: not JSON: %w", err)
	}
	c := &ctrfCheck{}
	c.root(doc)
	return c.err
}

type ctrfCheck struct{ err error }

func (c *ctrfCheck) fail(path, format string, args ...any) {
	if c.err == nil {
		c.err = fmt.Errorf("ctrf: %s: %s", path, fmt.Sprintf(format, args...))
	}
}

// object checks v is an object with the required keys and no key outside
// allowed (the schema's additionalProperties: false).
func (c *ctrfCheck) object(path string, v any, required, allowed []string) map[string]any {
	m, ok := v.(map[string]any)
	if !ok {
		c.fail(path, "want an object")
		return nil
	}
	for _, k := range required {
		if _, ok := m[k]; !ok {
			c.fail(path, "%q is required", k)
		}
	}
	known := map[string]bool{}
	for _, k := range append(required, allowed...) {
		known[k] = true
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !known[k] {
			c.fail(path, "%q is not a CTRF property", k)
		}
	}
	return m
}

func (c *ctrfCheck) str(path string, v any, minLen int) string {
	s, ok := v.(string)
	if !ok {
		c.fail(path, "want a string")
	} else if len(s) < minLen {
		c.fail(path, "must not be empty")
	}
	return s
}

func (c *ctrfCheck) integer(path string, v any) int64 {
	n, ok := v.(json.Number)
	if !ok {
		c.fail(path, "want an integer")
		return 0
	}
	i, err := n.Int64()
	if err != nil {
		c.fail(path, "%s is not an integer", n)
	}
	return i
}

// typed checks optional properties by JSON type: "string", "integer",
// "boolean", "object", "array", "strings" (array of strings).
func (c *ctrfCheck) typed(path string, m map[string]any, types map[string]string) {
	for k, want := range types {
		v, ok := m[k]
		if !ok {
			continue
		}
		p := path + "." + k
		switch want {
		case "string":
			c.str(p, v, 0)
		case "integer":
			c.integer(p, v)
		case "boolean":
			if _, ok := v.(bool); !ok {
				c.fail(p, "want true or false")
			}
		case "object":
			if _, ok := v.(map[string]any); !ok {
				c.fail(p, "want an object")
			}
		case "array", "strings":
			a, ok := v.([]any)
			if !ok {
				c.fail(p, "want an array")
				continue
			}
			if want == "strings" {
				for i, x := range a {
					c.str(fmt.Sprintf("%s[%d]", p, i), x, 0)
				}
			}
		}
	}
}

var (
	semver    = regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+$`)
	ctrfState = map[string]bool{"passed": true, "failed": true, "skipped": true, "pending": true, "other": true}
)

func (c *ctrfCheck) root(doc any) {
	m := c.object("$", doc, []string{"results", "reportFormat", "specVersion"},
		[]string{"reportId", "runId", "timestamp", "generatedBy", "extra", "insights", "baseline"})
	if m == nil {
		return
	}
	if m["reportFormat"] != "CTRF" {
		c.fail("$.reportFormat", "must be \"CTRF\"")
	}
	if v := c.str("$.specVersion", m["specVersion"], 1); !semver.MatchString(v) {
		c.fail("$.specVersion", "%q is not MAJOR.MINOR.PATCH", v)
	}
	c.typed("$", m, map[string]string{"reportId": "string", "runId": "string", "timestamp": "string", "generatedBy": "string",
		"extra": "object", "insights": "object", "baseline": "object"})
	res := c.object("$.results", m["results"], []string{"tool", "summary", "tests"}, []string{"environment", "extra"})
	if res == nil {
		return
	}
	c.typed("$.results", res, map[string]string{"environment": "object", "extra": "object"})
	if tool := c.object("$.results.tool", res["tool"], []string{"name"}, []string{"version", "extra"}); tool != nil {
		c.str("$.results.tool.name", tool["name"], 1)
		c.typed("$.results.tool", tool, map[string]string{"version": "string", "extra": "object"})
	}
	counts := []string{"tests", "passed", "failed", "skipped", "pending", "other", "start", "stop"}
	sum := c.object("$.results.summary", res["summary"], counts, []string{"flaky", "suites", "duration", "extra"})
	got := map[string]int64{}
	if sum != nil {
		for _, k := range counts {
			if v, ok := sum[k]; ok {
				got[k] = c.integer("$.results.summary."+k, v)
			}
		}
		c.typed("$.results.summary", sum, map[string]string{"flaky": "integer", "suites": "integer", "duration": "integer", "extra": "object"})
	}
	tests, ok := res["tests"].([]any)
	if !ok {
		c.fail("$.results.tests", "want an array")
		return
	}
	seen := map[string]int64{}
	for i, t := range tests {
		p := fmt.Sprintf("$.results.tests[%d]", i)
		tm := c.object(p, t, []string{"name", "status", "duration"}, []string{"id", "start", "stop", "suite", "message", "trace",
			"snippet", "ai", "line", "rawStatus", "tags", "labels", "type", "filePath", "retries", "retryAttempts", "flaky",
			"stdout", "stderr", "threadId", "browser", "device", "screenshot", "attachments", "parameters", "steps", "insights", "extra"})
		if tm == nil {
			continue
		}
		c.str(p+".name", tm["name"], 1)
		st, _ := tm["status"].(string)
		if !ctrfState[st] {
			c.fail(p+".status", "%v: want passed, failed, skipped, pending or other", tm["status"])
		}
		seen[st]++
		c.integer(p+".duration", tm["duration"])
		c.typed(p, tm, map[string]string{"id": "string", "start": "integer", "stop": "integer", "suite": "strings", "message": "string",
			"trace": "string", "snippet": "string", "ai": "string", "line": "integer", "rawStatus": "string", "tags": "strings",
			"labels": "object", "type": "string", "filePath": "string", "retries": "integer", "retryAttempts": "array", "flaky": "boolean",
			"stdout": "strings", "stderr": "strings", "threadId": "string", "browser": "string", "device": "string", "screenshot": "string",
			"attachments": "array", "parameters": "object", "steps": "array", "insights": "object", "extra": "object"})
		if s, ok := tm["suite"].([]any); ok && len(s) == 0 {
			c.fail(p+".suite", "must have at least one item")
		}
	}
	if sum == nil || c.err != nil {
		return
	}
	if got["tests"] != int64(len(tests)) {
		c.fail("$.results.summary.tests", "%d, but the report lists %d tests", got["tests"], len(tests))
	}
	for _, k := range []string{"passed", "failed", "skipped", "pending", "other"} {
		if got[k] != seen[k] {
			c.fail("$.results.summary."+k, "%d, but %d tests have that status", got[k], seen[k])
		}
	}
}
