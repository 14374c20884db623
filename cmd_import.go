package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"curate/pipeline"
	"curate/pipeline/sanitize"
	"curate/pipeline/score"
	"curate/pipeline/source/harbor"
	"curate/workspace"
)

func init() { register(newImportCmd) }

// importSubs are the `import` subcommands; each cmd_import_*.go adds one.
var importSubs []func(*App) *cobra.Command

func newImportCmd(app *App) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "import",
		Short: "Import existing benchmarks: Harbor task dirs, SWE-bench JSONL, selection manifests",
		Long: `Import tasks from existing benchmarks into the workspace. Each import scores
the tasks with the workspace's profile and prints how many were imported,
updated, unchanged and failed (each failure with its reason). With --strict
any failure exits non-zero and nothing is written. Re-importing is
idempotent; changed task files update the digest, which marks earlier
validation runs stale.`,
	}
	for _, f := range importSubs {
		cmd.AddCommand(f(app))
	}
	return cmd
}

// importOptions are the flags every import shares.
type importOptions struct {
	benchmark string
	strict    bool
	asJSON    bool
	profile   string
}

func (o *importOptions) register(cmd *cobra.Command, withBenchmark bool) {
	if withBenchmark {
		cmd.Flags().StringVar(&o.benchmark, "benchmark", "", "benchmark name for every task (default: from the source)")
	}
	cmd.Flags().BoolVar(&o.strict, "strict", false, "exit non-zero and write nothing if any task fails")
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the summary as JSON")
	cmd.Flags().StringVar(&o.profile, "profile", "", "profile TOML file overriding the workspace's profile")
}

// importItem is one task read from a source, with the dir to copy (harbor).
type importItem struct {
	task    *pipeline.Task
	copyDir string // source task dir to copy into tasks/<id>; "" = none
}

// importFailure is one thing that could not be imported.
type importFailure struct {
	Source string `json:"source"`
	Reason string `json:"reason"`
}

// importSummary is what every import prints.
type importSummary struct {
	Kind      string          `json:"kind"`
	Profile   string          `json:"profile"`
	Imported  []string        `json:"imported"`
	Updated   []string        `json:"updated"`
	Unchanged []string        `json:"unchanged"`
	Failed    []importFailure `json:"failed"`
	Notes     []string        `json:"notes,omitempty"`
	Written   bool            `json:"written"`
}

// importer scores, classifies and writes the items of one import.
type importer struct {
	app  *App
	ws   *workspace.Workspace
	opt  importOptions
	kind string
}

func newImporter(ctx context.Context, app *App, opt importOptions, kind string) (*importer, *score.Scorer, string, error) {
	ws, err := app.Workspace(ctx)
	if err != nil {
		return nil, nil, "", err
	}
	s, name, err := loadScorer(ws, opt.profile)
	if err != nil {
		return nil, nil, "", err
	}
	return &importer{app: app, ws: ws, opt: opt, kind: kind}, s, name, nil
}

// run scores items, compares them with the store, and (unless --strict
// found failures) copies task dirs and writes the changed tasks.
func (im *importer) run(ctx context.Context, s *score.Scorer, profile string, items []importItem, failures []importFailure) (*importSummary, error) {
	sum := &importSummary{Kind: im.kind, Profile: profile, Imported: []string{}, Updated: []string{}, Unchanged: []string{}, Failed: failures}
	ids := make([]string, len(items))
	for i, it := range items {
		ids[i] = it.task.ID
	}
	stored, err := im.ws.Store.TasksByID(ctx, ids)
	if err != nil {
		return nil, err
	}
	seen := map[string]string{}
	var write []importItem
	for _, it := range items {
		t := it.task
		if first, dup := seen[t.ID]; dup {
			sum.Failed = append(sum.Failed, importFailure{t.SourcePath, fmt.Sprintf("duplicate task id %q (also read from %s)", t.ID, first)})
			continue
		}
		seen[t.ID] = t.SourcePath
		if it.copyDir != "" {
			t.TaskDir = filepath.Join(im.ws.TasksPath(), t.ID)
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
	if im.opt.strict && len(sum.Failed) > 0 {
		return sum, nil
	}
	if err := im.writeDirsAndRows(ctx, write, sum); err != nil {
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
// Whatever opens the workspace after a kill replays the journal.
func (im *importer) writeDirsAndRows(ctx context.Context, write []importItem, sum *importSummary) error {
	var entries []workspace.JournalEntry
	for _, it := range write {
		if it.copyDir == "" {
			continue
		}
		staging, old := im.ws.StagingPaths(it.task.ID)
		entries = append(entries, workspace.JournalEntry{ID: it.task.ID, Dir: it.task.TaskDir, Staging: staging, Old: old,
			HadDir: dirExists(it.task.TaskDir), Digest: it.task.Digest})
	}
	var journal *workspace.Journal
	if len(entries) > 0 {
		var err error
		if journal, err = im.ws.BeginJournal(entries); err != nil {
			return err
		}
	}
	entryOf := map[string]workspace.JournalEntry{}
	for _, e := range entries {
		entryOf[e.ID] = e
	}
	copyErrs := make([]error, len(write))
	parallel(len(write), func(i int) {
		if write[i].copyDir != "" {
			copyErrs[i] = harbor.StageTask(write[i].copyDir, entryOf[write[i].task.ID].Staging)
		}
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
			sum.Failed = append(sum.Failed, importFailure{it.copyDir, copyErrs[i].Error()})
			sum.Imported, sum.Updated = remove(sum.Imported, it.task.ID), remove(sum.Updated, it.task.ID)
			continue
		}
		tasks = append(tasks, it.task)
	}
	if err := im.ws.Store.UpsertTasks(ctx, tasks); err != nil {
		return err // the journal stays: the next open puts the old dirs back
	}
	if journal != nil {
		parallel(len(entries), func(i int) { os.RemoveAll(entries[i].Old) })
		return journal.Done()
	}
	return nil
}

// report prints the summary and turns --strict failures into exit code 1.
func (im *importer) report(sum *importSummary) error {
	if im.opt.asJSON {
		if err := writeJSON(im.app.Out, sum); err != nil {
			return err
		}
	} else {
		w := im.app.Out
		format := "import %s (profile %s): %d imported, %d updated, %d unchanged, %d failed\n"
		if !sum.Written {
			format = "import %s (profile %s): nothing written; would be %d imported, %d updated, %d unchanged; %d failed\n"
		}
		fmt.Fprintf(w, format, im.kind, sanitize.Line(sum.Profile), len(sum.Imported), len(sum.Updated), len(sum.Unchanged), len(sum.Failed))
		for _, f := range sum.Failed {
			fmt.Fprintf(w, "  FAILED %s\n         %s\n", sanitize.Line(f.Source), sanitize.Line(f.Reason))
		}
		for _, n := range sum.Notes {
			fmt.Fprintf(w, "  note: %s\n", sanitize.Line(n))
		}
	}
	if im.opt.strict && len(sum.Failed) > 0 {
		return exitError{code: 1, msg: fmt.Sprintf("import %s: %d failed; --strict: nothing was written", im.kind, len(sum.Failed))}
	}
	return nil
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
