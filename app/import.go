package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"time"

	"curate/pipeline"
	"curate/pipeline/score"
	"curate/pipeline/source/harbor"
	"curate/pipeline/source/manifest"
	"curate/pipeline/source/swebench"
	"curate/store"
	"curate/workspace"
)

// ImportOptions are what every import shares.
type ImportOptions struct {
	Benchmark string // benchmark name for every task; "" = from the source
	Strict    bool   // any failure: write nothing
	Profile   string // profile TOML file overriding the workspace's profile
	InPlace   bool   // harbor: reference task dirs where they are
	// Rename imports a task whose id names a task from another source
	// under the id with the first free "-N" suffix; else it is refused.
	Rename bool
	// Progress hears of every task dir read and copied (nil: nobody).
	Progress ProgressFunc
}

// ImportFailure is one thing that could not be imported.
type ImportFailure struct {
	Source string `json:"source"`
	Reason string `json:"reason"`
}

// ImportSummary is the outcome of one import.
type ImportSummary struct {
	Kind      string          `json:"kind"`
	Profile   string          `json:"profile"`
	Imported  []string        `json:"imported"`
	Updated   []string        `json:"updated"`
	Unchanged []string        `json:"unchanged"`
	Failed    []ImportFailure `json:"failed"`
	Notes     []string        `json:"notes,omitempty"`
	Written   bool            `json:"written"`
}

// importItem is one task read from a source, with the dir to copy (harbor).
type importItem struct {
	task    *pipeline.Task
	copyDir string // source task dir to copy into tasks/<id>; "" = none
}

// ImportHarbor imports every Harbor task dir under paths.
func ImportHarbor(ctx context.Context, ws *workspace.Workspace, paths []string, o ImportOptions) (*ImportSummary, error) {
	var failures []ImportFailure
	var dirs []string
	for _, root := range paths {
		found, err := harbor.Find(root)
		if err != nil {
			failures = append(failures, ImportFailure{root, err.Error()})
			continue
		}
		dirs = append(dirs, found...)
	}
	read := make([]importItem, len(dirs))
	errs := make([]error, len(dirs))
	var readN atomic.Int64
	parallel(len(dirs), func(i int) {
		defer func() { o.Progress.report("read", int(readN.Add(1)), len(dirs), dirs[i]) }()
		t, err := harbor.Read(dirs[i], harbor.Options{Benchmark: o.Benchmark})
		if err != nil {
			errs[i] = err
			return
		}
		read[i] = importItem{task: t} // Read set TaskDir to the source dir
		if !o.InPlace {
			read[i].copyDir = t.TaskDir
		}
	})
	var items []importItem
	for i := range dirs {
		if errs[i] != nil {
			failures = append(failures, ImportFailure{dirs[i], errs[i].Error()})
			continue
		}
		items = append(items, read[i])
	}
	return importItems(ctx, ws, "harbor", o, items, failures)
}

// ImportSWEbench imports SWE-bench style JSONL files. A file that cannot
// be opened stops the import before anything is read, as a manifest does;
// an empty one is noted.
func ImportSWEbench(ctx context.Context, ws *workspace.Workspace, paths []string, o ImportOptions) (*ImportSummary, error) {
	for _, path := range paths {
		if fi, err := os.Stat(path); err != nil {
			return nil, fmt.Errorf("import swebench: %w", err)
		} else if fi.IsDir() {
			return nil, fmt.Errorf("import swebench: %s is a folder, not a JSONL file", path)
		}
	}
	var items []importItem
	var failures []ImportFailure
	var notes []string
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("import swebench: %w", err)
		}
		tasks, bad, err := swebench.Read(path, f, o.Benchmark)
		f.Close()
		if err != nil {
			failures = append(failures, ImportFailure{path, err.Error()})
		}
		if err == nil && len(tasks) == 0 && len(bad) == 0 {
			notes = append(notes, path+": no rows (an empty file?); a SWE-bench JSONL holds one JSON object a line")
		}
		for _, b := range bad {
			failures = append(failures, ImportFailure{b.File + ":" + strconv.Itoa(b.Line), b.Err.Error()})
		}
		for _, t := range tasks {
			items = append(items, importItem{task: t})
		}
	}
	sum, err := importItems(ctx, ws, "swebench", o, items, failures)
	if sum != nil {
		sum.Notes = notes
	}
	return sum, err
}

// ManifestImport is what a manifest import saved besides its tasks.
type ManifestImport struct {
	Selection *pipeline.Selection // nil when nothing was written
	Known     int                 // tasks already imported from their task dirs
}

// ImportManifest imports a selection manifest: its tasks the workspace
// does not have as catalogue entries, and its choice as a snapshot.
func ImportManifest(ctx context.Context, ws *workspace.Workspace, file string, o ImportOptions) (*ImportSummary, *ManifestImport, error) {
	path, err := filepath.Abs(file)
	if err != nil {
		return nil, nil, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("import manifest: %w", err)
	}
	m, bad, err := manifest.Parse(file, data)
	if err != nil {
		return nil, nil, err
	}
	var items []importItem
	var failures []ImportFailure
	for _, b := range bad {
		failures = append(failures, ImportFailure{fmt.Sprintf("%s:%d tasks[%d]", b.File, b.Line, b.Index), b.Err.Error()})
	}
	var known []string
	for _, e := range m.Tasks {
		if old, err := ws.Store.Task(ctx, e.TaskID); err == nil && old.Source != "manifest" {
			known = append(known, e.TaskID) // imported from its dir: keep it
			continue
		}
		items = append(items, importItem{task: manifest.Task(e, path)})
	}
	sum, err := importItems(ctx, ws, "manifest", o, items, failures)
	if err != nil {
		return nil, nil, err
	}
	sum.Unchanged = append(sum.Unchanged, known...)
	res := &ManifestImport{Known: len(known)}
	if !sum.Written {
		return sum, res, nil
	}
	res.Selection = manifest.Selection(m, path)
	if err := ws.Store.SaveSelection(ctx, res.Selection); err != nil {
		return nil, nil, err
	}
	return sum, res, nil
}

// importItems scores items, compares them with the store, and (unless
// Strict found failures) copies task dirs and writes the changed tasks.
func importItems(ctx context.Context, ws *workspace.Workspace, kind string, o ImportOptions, items []importItem, failures []ImportFailure) (*ImportSummary, error) {
	s, profile, err := LoadScorer(ws, o.Profile)
	if err != nil {
		return nil, err
	}
	sum := &ImportSummary{Kind: kind, Profile: profile, Imported: []string{}, Updated: []string{}, Unchanged: []string{}, Failed: append([]ImportFailure{}, failures...)}
	write, err := classify(ctx, ws, s, items, sum, o.Rename)
	if err != nil {
		return nil, err
	}
	if o.Strict && len(sum.Failed) > 0 {
		return sum, nil
	}
	if err := writeDirsAndRows(ctx, ws, write, sum, o.Progress); err != nil {
		return sum, err
	}
	sum.Written = true
	return sum, nil
}

// writeDirsAndRows copies the task dirs and writes their rows so that a
// kill at any moment leaves dirs and rows that agree: every dir to replace
// is listed in a journal first (workspace.BeginJournal), new dirs are
// staged beside their place and swapped in, the rows go in one
// transaction, and only then are the old dirs and the journal dropped.
// Whatever opens the workspace after a kill replays the journal
// (workspace.RecoverImports).
func writeDirsAndRows(ctx context.Context, ws *workspace.Workspace, write []importItem, sum *ImportSummary, progress ProgressFunc) error {
	var entries []workspace.JournalEntry
	for _, it := range write {
		if it.copyDir == "" {
			continue
		}
		staging, old := ws.StagingPaths(it.task.ID)
		entries = append(entries, workspace.JournalEntry{ID: it.task.ID, Dir: it.task.TaskDir, Staging: staging, Old: old,
			HadDir: dirExists(it.task.TaskDir), Digest: it.task.Digest})
	}
	var journal *workspace.Journal
	if len(entries) > 0 {
		var err error
		if journal, err = ws.BeginJournal(entries); err != nil {
			return err
		}
	}
	entryOf := map[string]workspace.JournalEntry{}
	for _, e := range entries {
		entryOf[e.ID] = e
	}
	copyErrs := make([]error, len(write))
	var copied atomic.Int64
	parallel(len(write), func(i int) {
		if write[i].copyDir != "" {
			copyErrs[i] = harbor.StageTask(write[i].copyDir, entryOf[write[i].task.ID].Staging)
		}
		progress.report("write", int(copied.Add(1)), len(write), write[i].task.ID)
	})
	var tasks []*pipeline.Task
	for i, it := range write {
		if copyErrs[i] == nil && it.copyDir != "" {
			e := entryOf[it.task.ID]
			if err := harbor.SwapIn(e.Staging, e.Dir, e.Old); err != nil {
				copyErrs[i] = fmt.Errorf("copy %s: %w", it.copyDir, err)
			}
		}
		if copyErrs[i] != nil {
			sum.Failed = append(sum.Failed, ImportFailure{it.copyDir, copyErrs[i].Error()})
			sum.Imported, sum.Updated = remove(sum.Imported, it.task.ID), remove(sum.Updated, it.task.ID)
			continue
		}
		tasks = append(tasks, it.task)
	}
	if err := ws.Store.UpsertTasks(ctx, tasks); err != nil {
		return err // the journal stays: the next open puts the old dirs back
	}
	if journal != nil {
		parallel(len(entries), func(i int) { os.RemoveAll(entries[i].Old) })
		return journal.Done()
	}
	return nil
}

// classify scores items and sorts them into imported, updated and
// unchanged; it returns the items to write.
func classify(ctx context.Context, ws *workspace.Workspace, s *score.Scorer, items []importItem, sum *ImportSummary, rename bool) ([]importItem, error) {
	ids := make([]string, len(items))
	for i, it := range items {
		ids[i] = it.task.ID
	}
	stored, err := ws.Store.TasksByID(ctx, ids)
	if err != nil {
		return nil, err
	}
	seen := map[string]string{}
	var write []importItem
	for _, it := range items {
		t := it.task
		if old := stored[t.ID]; old != nil && otherSource(old, t) {
			if !rename {
				sum.Failed = append(sum.Failed, ImportFailure{t.SourcePath, fmt.Sprintf("task id %q is already a task from %s (%s); not replaced: give this one another id, or pass --rename to import it as %s-2",
					t.ID, old.Source, old.SourcePath, t.ID)})
				continue
			}
			id, earlier, err := freeID(ctx, ws, t, seen)
			if err != nil {
				return nil, err
			}
			t.ID, stored[id] = id, earlier
		}
		if first, dup := seen[t.ID]; dup {
			sum.Failed = append(sum.Failed, ImportFailure{t.SourcePath, fmt.Sprintf("duplicate task id %q (also read from %s)", t.ID, first)})
			continue
		}
		seen[t.ID] = t.SourcePath
		if it.copyDir != "" {
			t.TaskDir = filepath.Join(ws.TasksPath(), t.ID)
		}
		s.Apply(t)
		old := stored[t.ID]
		switch {
		case old == nil:
			sum.Imported = append(sum.Imported, t.ID)
		case sameTask(old, t) && (it.copyDir == "" || dirExists(t.TaskDir)):
			sum.Unchanged = append(sum.Unchanged, t.ID)
			continue
		default:
			if old.Digest == t.Digest && old.Status != "" {
				t.Status = old.Status // same files: validation results still hold
			}
			t.CreatedAt = old.CreatedAt
			sum.Updated = append(sum.Updated, t.ID)
		}
		write = append(write, it)
	}
	return write, nil
}

// otherSource reports whether old came from another kind of source than t
// (a mined PR, a SWE-bench row, a Harbor folder): an import replaces only
// its own kind. Catalogue entries (of a manifest, or the demo's) are the
// exception: the task's own dir, imported later, is meant to take their place.
func otherSource(old, t *pipeline.Task) bool {
	return old.Source != t.Source && old.Source != "manifest" && old.Source != "demo"
}

// freeID is id with the first "-N" suffix (N from 2) that names no task
// of another source, stored or in this import: a re-import with --rename
// finds its earlier ID-2 again instead of adding ID-3.
func freeID(ctx context.Context, ws *workspace.Workspace, t *pipeline.Task, seen map[string]string) (string, *pipeline.Task, error) {
	for n := 2; ; n++ {
		c := fmt.Sprintf("%s-%d", t.ID, n)
		if _, dup := seen[c]; dup {
			continue
		}
		old, err := ws.Store.Task(ctx, c)
		switch {
		case errors.Is(err, store.ErrNotFound):
			return c, nil, nil
		case err != nil:
			return "", nil, err
		case !otherSource(old, t):
			return c, old, nil
		}
	}
}

// sameTask reports whether an import would change nothing a source or a
// score sets (labels, status and timestamps aside). Both sides are compared
// as JSON, which also evens out number types in Extra (int64 from TOML,
// float64 from the store).
func sameTask(old, t *pipeline.Task) bool {
	return bytes.Equal(comparable(old), comparable(t))
}

func comparable(t *pipeline.Task) []byte {
	c := *t
	c.Labels, c.Status, c.Reasons = pipeline.Labels{}, "", nil
	c.CreatedAt, c.UpdatedAt = time.Time{}, time.Time{}
	data, _ := json.Marshal(c)
	return data
}

func dirExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

func remove(xs []string, x string) []string {
	out := xs[:0]
	for _, v := range xs {
		if v != x {
			out = append(out, v)
		}
	}
	return out
}
