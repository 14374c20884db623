// Package swebench imports SWE-bench style instances (SWE-bench, Verified,
// SWE-smith, SWE-bench Pro) from JSONL, one object a line. A broken line is
// reported with file:line and the other lines are still imported.
package swebench

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"

	"curate/pipeline"
	"curate/pipeline/score"
	"curate/pipeline/source"
	"curate/pipeline/taskvalue"
)

// MaxLine is the longest JSONL line read (patches can be large); a longer
// row is refused before anything of it is decoded.
const MaxLine = taskvalue.MaxRow

// LineError is one line that could not be imported.
type LineError struct {
	File string
	Line int
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err) }

// modelled are the columns that become Task fields; every other column is
// kept in Task.Extra.
var modelled = map[string]bool{"instance_id": true, "repo": true, "base_commit": true, "problem_statement": true,
	"difficulty": true, "repo_language": true}

// Read parses every line of r. Tasks come back in file order, unscored;
// bad lines (invalid JSON, no instance_id, a duplicate id, a list field
// that is neither a list nor a JSON-encoded list) come back as LineErrors.
// Only a read failure of r itself is returned as err.
func Read(name string, r io.Reader, benchmark string) (tasks []*pipeline.Task, bad []*LineError, err error) {
	br := bufio.NewReaderSize(r, 1<<20)
	seen := map[string]int{}
	for line := 1; ; line++ {
		raw, rerr := readLine(br)
		if rerr != nil && rerr != io.EOF {
			if rerr == errTooLong {
				bad = append(bad, &LineError{name, line, rerr})
				continue
			}
			return tasks, bad, fmt.Errorf("read %s: %w", name, rerr)
		}
		if len(bytes.TrimSpace(raw)) > 0 {
			t, perr := parseLine(raw, benchmark)
			switch {
			case perr != nil:
				bad = append(bad, &LineError{name, line, perr})
			case seen[t.ID] > 0:
				bad = append(bad, &LineError{name, line, fmt.Errorf("duplicate instance_id %q (first on line %d)", t.ID, seen[t.ID])})
			default:
				seen[t.ID] = line
				t.SourcePath = fmt.Sprintf("%s:%d", name, line)
				tasks = append(tasks, t)
			}
		}
		if rerr == io.EOF {
			return tasks, bad, nil
		}
	}
}

var errTooLong = fmt.Errorf("line longer than %d MB", MaxLine>>20)

// readLine reads one line; an over-long line is skipped to its end.
func readLine(br *bufio.Reader) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(buf)+len(chunk) > MaxLine {
			for err == bufio.ErrBufferFull {
				_, err = br.ReadSlice('\n')
			}
			if err == io.EOF {
				return nil, errTooLong
			}
			return nil, errTooLong
		}
		buf = append(buf, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		return bytes.TrimRight(buf, "\r\n"), err
	}
}

var smithID = regexp.MustCompile(`^[^/]+__[^/]+\.[0-9a-f]{8}(\.|$)`)

func parseLine(raw []byte, benchmark string) (*pipeline.Task, error) {
	var row map[string]json.RawMessage
	if err := json.Unmarshal(raw, &row); err != nil {
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	vals, err := checkRow(row)
	if err != nil {
		return nil, err
	}
	str := func(k string) string { s, _ := vals[k].(string); return s }
	t := &pipeline.Task{Source: "swebench", Status: pipeline.StatusImported, Extra: map[string]any{}}
	t.ID = str("instance_id")
	t.Repo, t.BaseCommit = str("repo"), str("base_commit")
	t.Body = str("problem_statement")
	t.Language = strings.ToLower(str("repo_language"))
	if t.ID == "" {
		return nil, fmt.Errorf("no instance_id")
	}
	if t.Repo != "" && !source.ValidRepo(t.Repo) {
		return nil, fmt.Errorf("repo %q: want OWNER/NAME (letters, digits, . _ -; no ..)", t.Repo)
	}
	for _, k := range []string{"pull_number", "pr_number", "pr"} {
		if n, ok := vals[k].(float64); ok && n < 1 {
			return nil, fmt.Errorf("%s %v: a pull request number is 1 or more", k, n)
		}
	}
	t.DifficultyImported = pipeline.Difficulty(str("difficulty")) // checked: on the scale
	t.Title = firstLine(t.Body)
	for k, v := range vals {
		if modelled[k] {
			continue
		}
		if isListColumn(k) {
			k = strings.ToLower(k)
		}
		t.Extra[k] = v
	}
	patch, _ := t.Extra["patch"].(string)
	if st := score.CountPatch(patch); st.Files > 0 {
		src := "patch column"
		t.Features.Set(pipeline.FeatFilesChanged, float64(st.Files), src)
		t.Features.Set(pipeline.FeatLinesAdded, float64(st.Added), src)
		t.Features.Set(pipeline.FeatLinesRemoved, float64(st.Removed), src)
		t.Features.Set(pipeline.FeatLOCChanged, float64(st.LOC()), src)
	}
	if t.Language == "" {
		if l := score.LanguageFromPatch(patch); l != "" {
			t.Language = l
			t.Extra["language_source"] = "patch column file extensions"
		}
	}
	if tp, _ := t.Extra["test_patch"].(string); tp != "" {
		t.Features.Set(pipeline.FeatTestFiles, float64(score.CountPatch(tp).Files), "test_patch column")
	}
	t.Benchmark = benchmark
	if t.Benchmark == "" {
		t.Benchmark = detect(t, row)
	}
	sum := sha256.Sum256(raw)
	t.Extra["source_sha256"] = hex.EncodeToString(sum[:])
	return t, nil
}

// isListColumn names the columns that hold lists of test ids or files.
func isListColumn(k string) bool {
	switch strings.ToLower(k) {
	case "fail_to_pass", "pass_to_pass", "selected_test_files_to_run":
		return true
	}
	return false
}

// checkRow runs the strict reader over every column of a row: known
// columns against their spec (list columns may be JSON-encoded strings),
// every other column against the size caps. Null columns are dropped.
func checkRow(row map[string]json.RawMessage) (map[string]any, error) {
	keys := make([]string, 0, len(row))
	for k := range row {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make(map[string]any, len(row))
	for _, k := range keys {
		var v any
		if err := json.Unmarshal(row[k], &v); err != nil { // only a number beyond float64 gets here
			return nil, &taskvalue.Error{Key: k, Reason: "want a finite number (got " + clip(row[k]) + ")"}
		}
		if v == nil {
			continue
		}
		spec, known := taskvalue.SWEbench[k]
		if !known {
			if err := taskvalue.CheckAny(k, v, 0); err != nil {
				return nil, err
			}
			out[k] = v
			continue
		}
		if s, ok := v.(string); ok && spec.Kind == taskvalue.StringList {
			list, err := encodedList(k, s)
			if err != nil {
				return nil, err
			}
			v = list
		}
		cv, err := taskvalue.Check(k, spec, v)
		if err != nil {
			return nil, err
		}
		out[k] = cv
	}
	return out, nil
}

// encodedList decodes a list column some datasets store as a JSON string.
func encodedList(k, s string) (any, error) {
	if strings.TrimSpace(s) == "" {
		return []any{}, nil
	}
	var list []any
	if err := json.Unmarshal([]byte(s), &list); err != nil {
		return nil, &taskvalue.Error{Key: k, Reason: "string is not a JSON-encoded list of strings: " + clip([]byte(s))}
	}
	return list, nil
}

// detect names the dataset a row comes from by the columns it has.
func detect(t *pipeline.Task, row map[string]json.RawMessage) string {
	_, hasImage := row["image_name"]
	_, proLists := row["fail_to_pass"]
	_, lang := row["repo_language"]
	switch {
	case hasImage || smithID.MatchString(t.ID):
		return "swesmith"
	case proLists || lang:
		return "swebenchpro"
	case t.DifficultyImported != "":
		return "swebench_verified"
	}
	return "swebench"
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSpace(strings.TrimLeft(s, "# "))
	if r := []rune(s); len(r) > 200 {
		s = string(r[:200])
	}
	return s
}

func clip(b []byte) string {
	if len(b) > 60 {
		return string(b[:60]) + "…"
	}
	return string(b)
}
