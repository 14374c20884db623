package diff

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"curate/pipeline"
	"curate/pipeline/taskdir"
	"curate/pipeline/unidiff"
	"curate/ui/shared"
)

// The three patches of a task, in the order the Diff screen's keys name them.
const (
	patchBug = iota
	patchFix
	patchTests
	patchKinds
)

var patchNames = [patchKinds]string{"bug.patch", "fix.patch", "tests"}

// patchSet is one parsed patch, or why there is none.
type patchSet struct {
	source string // file it came from, for the header
	files  []unidiff.File
	err    error
	absent string // why there is no patch (not an error)
}

// loadPatches reads and parses a task's bug, fix and test patches. It runs
// in a tea.Cmd.
func loadPatches(root string, t *pipeline.Task) [patchKinds]*patchSet {
	var out [patchKinds]*patchSet
	dir := shared.TaskDirPath(root, t)
	fromFile := func(rel string) *patchSet {
		if dir == "" {
			return nil
		}
		p, err := taskdir.SafeJoin(dir, rel)
		if err != nil {
			return &patchSet{source: rel, err: err}
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return nil
		}
		if !fi.Mode().IsRegular() {
			return &patchSet{source: rel, err: fmt.Errorf("%s: not a regular file (symlinks are refused)", rel)}
		}
		data, err := shared.ReadCapped(p, unidiff.MaxBytes)
		if err != nil {
			return &patchSet{source: rel, err: err}
		}
		files, err := unidiff.Parse(rel, string(data))
		return &patchSet{source: rel, files: files, err: err}
	}
	fromExtra := func(key string) *patchSet {
		s, ok := t.Extra[key].(string)
		if !ok || s == "" {
			return nil
		}
		files, err := unidiff.Parse(key, s)
		return &patchSet{source: "task " + key, files: files, err: err}
	}
	out[patchBug] = fromFile("environment/bug.patch")
	out[patchFix] = fromFile("solution/fix.patch")
	if out[patchFix] == nil {
		out[patchFix] = fromExtra("patch")
	}
	out[patchTests] = fromExtra("test_patch")
	if out[patchTests] == nil {
		out[patchTests] = fromFile("tests/test.patch")
	}
	if out[patchTests] == nil && dir != "" {
		out[patchTests] = testsAsPatch(dir)
	}
	for i := range out {
		if out[i] == nil {
			out[i] = &patchSet{absent: absentReason(i, dir)}
		}
	}
	return out
}

func absentReason(kind int, dir string) string {
	if dir == "" {
		return "this task has no task dir (not built yet) and its source carries no " + patchNames[kind]
	}
	switch kind {
	case patchBug:
		return "no environment/bug.patch in " + dir
	case patchFix:
		return "no solution/fix.patch in " + dir
	}
	return "no tests/test.patch, no tests/ files and no test_patch"
}

// testsAsPatch shows a task dir's tests/ files as added files: what the
// verifier brings to the environment.
func testsAsPatch(dir string) *patchSet {
	root, err := taskdir.SafeJoin(dir, "tests")
	if err != nil {
		return &patchSet{source: "tests/", err: err}
	}
	if fi, err := os.Lstat(root); err != nil || !fi.IsDir() {
		return nil
	}
	var files []unidiff.File
	total := 0
	err = filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.Type()&fs.ModeSymlink != 0 {
			return nil // never follow a link out of the tree
		}
		if e.IsDir() || !e.Type().IsRegular() {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		data, err := shared.ReadCapped(p, 4<<20)
		if err != nil {
			return err
		}
		total += len(data)
		if total > unidiff.MaxBytes {
			return fmt.Errorf("tests/ is over %d bytes", unidiff.MaxBytes)
		}
		text := strings.TrimSuffix(string(data), "\n")
		lines := strings.Split(text, "\n")
		h := unidiff.Hunk{OldStart: 0, NewStart: 1, NewLines: len(lines)}
		for i, l := range lines {
			h.Lines = append(h.Lines, unidiff.Line{Kind: unidiff.Added, Text: l, NewNo: i + 1})
		}
		files = append(files, unidiff.File{OldName: "/dev/null", NewName: filepath.ToSlash(rel), Hunks: []unidiff.Hunk{h}, Added: len(lines)})
		return nil
	})
	sort.Slice(files, func(i, j int) bool { return files[i].NewName < files[j].NewName })
	return &patchSet{source: "tests/ (as added files)", files: files, err: err}
}
