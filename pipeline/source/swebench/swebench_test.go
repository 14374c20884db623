package swebench

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const dir = "../../../testdata/import/swebench"

func read(t *testing.T, name, bench string) ([]*LineError, map[string]int, []string) {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tasks, bad, err := Read(name, f, bench)
	if err != nil {
		t.Fatal(err)
	}
	idx := map[string]int{}
	var ids []string
	for i, tk := range tasks {
		idx[tk.ID] = i
		ids = append(ids, tk.ID)
	}
	return bad, idx, ids
}

func TestReadDatasets(t *testing.T) {
	cases := []struct {
		file, id, bench, lang, diff string
		files, loc, tests           int
		f2p                         []string
	}{
		{"verified.jsonl", "astropy__astropy-14508", "swebench_verified", "python", "medium", 1, 2, 1,
			[]string{"astropy/io/fits/tests/test_header.py::test_floating_point_string_representation_card"}},
		{"verified.jsonl", "django__django-11099", "swebench_verified", "python", "easy", 2, 2, 0,
			[]string{"test_ascii_validator (auth_tests.test_validators.UsernameValidatorsTests)"}},
		{"swesmith.jsonl", "pandas-dev__pandas.95280573.pr_53652", "swesmith", "python", "", 2, 2, 0,
			[]string{"pandas/tests/io/test_html.py::test_bs4_version_fails"}},
		{"pro.jsonl", "instance_NodeBB__NodeBB-04998908ba6721d64eba79ae3b65a351dcfbc5b5", "swebenchpro", "js", "", 3, 4, 0,
			[]string{"test/topics.js | should move posts"}},
	}
	for _, c := range cases {
		t.Run(c.id, func(t *testing.T) {
			f, _ := os.Open(filepath.Join(dir, c.file))
			defer f.Close()
			tasks, bad, err := Read(c.file, f, "")
			if err != nil || len(bad) > 0 {
				t.Fatalf("err %v bad %v", err, bad)
			}
			for _, tk := range tasks {
				if tk.ID != c.id {
					continue
				}
				if tk.Benchmark != c.bench || tk.Language != c.lang || string(tk.DifficultyImported) != c.diff {
					t.Fatalf("bench %q lang %q diff %q", tk.Benchmark, tk.Language, tk.DifficultyImported)
				}
				if tk.Features.Int("files_changed") != c.files || tk.Features.Int("loc_changed") != c.loc || tk.Features.Int("test_files") != c.tests {
					t.Fatalf("features %v", tk.Features.Values)
				}
				if !reflect.DeepEqual(tk.Extra["fail_to_pass"], c.f2p) {
					t.Fatalf("fail_to_pass %#v", tk.Extra["fail_to_pass"])
				}
				if _, ok := tk.Extra["pass_to_pass"].([]string); !ok {
					t.Fatalf("pass_to_pass %#v", tk.Extra["pass_to_pass"])
				}
				if tk.Title == "" || tk.Repo == "" || tk.BaseCommit == "" || tk.SourcePath == "" {
					t.Fatalf("missing fields %+v", tk)
				}
				return
			}
			t.Fatalf("task %s not read", c.id)
		})
	}
	_, idx, _ := read(t, "verified.jsonl", "mine")
	if len(idx) != 2 {
		t.Fatalf("ids %v", idx)
	}
}

func TestBrokenLines(t *testing.T) {
	bad, _, ids := read(t, "broken.jsonl", "")
	if !reflect.DeepEqual(ids, []string{"astropy__astropy-14508", "django__django-11099"}) {
		t.Fatalf("good ids %v", ids)
	}
	want := []string{"broken.jsonl:2: invalid JSON", "broken.jsonl:5: no instance_id", "broken.jsonl:6: FAIL_TO_PASS: string is not a JSON-encoded list"}
	if len(bad) != len(want) {
		t.Fatalf("bad = %v", bad)
	}
	for i, w := range want {
		if !strings.HasPrefix(bad[i].Error(), w) {
			t.Errorf("bad[%d] = %q, want prefix %q", i, bad[i], w)
		}
	}
}

func TestDuplicateAndTypes(t *testing.T) {
	in := `{"instance_id":"a__b-1","repo":"a/b"}
{"instance_id":"a__b-1","repo":"a/b"}
{"instance_id":5}
{"instance_id":"c__d-2","PASS_TO_PASS":null,"FAIL_TO_PASS":""}
[1,2]
`
	tasks, bad, err := Read("x.jsonl", strings.NewReader(in), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) != 2 || len(bad) != 3 {
		t.Fatalf("tasks %d bad %v", len(tasks), bad)
	}
	if !strings.Contains(bad[0].Error(), "x.jsonl:2: duplicate instance_id") || !strings.Contains(bad[1].Error(), "x.jsonl:3: instance_id: want a string") {
		t.Fatalf("bad %v", bad)
	}
}

func FuzzRead(f *testing.F) {
	for _, n := range []string{"verified.jsonl", "broken.jsonl", "pro.jsonl"} {
		data, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tasks, bad, err := Read("f.jsonl", strings.NewReader(string(data)), "")
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, tk := range tasks {
			if tk.ID == "" || seen[tk.ID] {
				t.Fatalf("bad id %q", tk.ID)
			}
			seen[tk.ID] = true
		}
		for _, b := range bad {
			if !strings.HasPrefix(b.Error(), "f.jsonl:") {
				t.Fatalf("error without file:line: %v", b)
			}
		}
	})
}

// The hostile rows of issue 18: refused with file:line and the column.
func TestReadRefusesBadValues(t *testing.T) {
	in := `{"instance_id":"../../evil","repo":"a/b"}
{"instance_id":"a__b-2","difficulty":"whenever"}
{"instance_id":"a__b-3","FAIL_TO_PASS":[1,2]}
{"instance_id":"a__b-4","hints_text":` + `"` + strings.Repeat("h", 2<<20) + `"}
{"instance_id":"a__b-5","weight":1e400}
{"instance_id":"a__b-6","repo":"a/b","difficulty":"1-4 hours","FAIL_TO_PASS":"[\"t1\"]"}
{"instance_id":"` + strings.Repeat("x", 200) + `"}
`
	tasks, bad, err := Read("h.jsonl", strings.NewReader(in), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) != 1 || tasks[0].ID != "a__b-6" || tasks[0].DifficultyImported != "hard" {
		t.Fatalf("tasks %v", tasks)
	}
	if l, _ := tasks[0].Extra["fail_to_pass"].([]string); len(l) != 1 {
		t.Errorf("fail_to_pass = %#v", tasks[0].Extra["fail_to_pass"])
	}
	want := []string{
		`h.jsonl:1: instance_id: id "../../evil" is not usable as a folder name`,
		`h.jsonl:2: difficulty: want one of easy`,
		`h.jsonl:3: FAIL_TO_PASS: want a list of strings; item 1 is 1`,
		`h.jsonl:4: hints_text: 2.0 MB is over the 1.0 MB limit`,
		`h.jsonl:5: weight: want a finite number (got 1e400)`,
		`h.jsonl:7: instance_id: id of 200 bytes is over the 128-byte limit`,
	}
	if len(bad) != len(want) {
		t.Fatalf("bad = %v", bad)
	}
	for i, w := range want {
		if !strings.HasPrefix(bad[i].Error(), w) {
			t.Errorf("bad[%d] = %.200q, want prefix %q", i, bad[i].Error(), w)
		}
	}
}

// A row over MaxLine is refused with a message, and never held in memory
// whole: the next row is still read.
func TestReadRefusesHugeRow(t *testing.T) {
	huge := `{"instance_id":"big","patch":"` + strings.Repeat("p", MaxLine+10) + `"}` + "\n"
	in := huge + `{"instance_id":"small"}` + "\n"
	tasks, bad, err := Read("big.jsonl", strings.NewReader(in), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) != 1 || tasks[0].ID != "small" {
		t.Fatalf("tasks %v", tasks)
	}
	if len(bad) != 1 || !strings.HasPrefix(bad[0].Error(), "big.jsonl:1: line longer than 16 MB") {
		t.Fatalf("bad = %v", bad)
	}
}
