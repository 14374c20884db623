package validate

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"curate/pipeline"
	"curate/pipeline/taskdir"
)

// ResolveTaskDir turns a task's task_dir into an absolute folder inside
// root (relative paths) or as stored (absolute paths) that holds a
// task.toml.
func ResolveTaskDir(root string, t *pipeline.Task) (string, error) {
	if t.TaskDir == "" {
		return "", fmt.Errorf("no task dir (build or import it first)")
	}
	dir := t.TaskDir
	if !filepath.IsAbs(dir) {
		var err error
		if dir, err = taskdir.SafeJoin(root, dir); err != nil {
			return "", err
		}
	}
	fi, err := os.Stat(filepath.Join(dir, "task.toml"))
	if err != nil || !fi.Mode().IsRegular() {
		return "", fmt.Errorf("task dir %s has no task.toml", dir)
	}
	return filepath.Clean(dir), nil
}

// Skip is a task left out of a validation, with why.
type Skip struct {
	TaskID string
	Reason string
}

// Jobs makes one job per task and mode, in task order, for the tasks whose
// task dir resolves under root and has a digest; the others are skipped.
// `curate validate` and the workbench's Runs screen both start here.
func Jobs(root string, tasks []*pipeline.Task, modes []string) ([]Job, []Skip) {
	var jobs []Job
	var skips []Skip
	for _, t := range tasks {
		dir, err := ResolveTaskDir(root, t)
		if err != nil {
			skips = append(skips, Skip{t.ID, err.Error()})
			continue
		}
		digest, err := taskdir.Digest(dir)
		if err != nil {
			skips = append(skips, Skip{t.ID, fmt.Sprintf("digest %s: %s", dir, err)})
			continue
		}
		share := slices.Contains(modes, ModeNop) && slices.Contains(modes, ModeOracle) && slices.Contains(modes, ModeGold)
		for _, m := range modes {
			jobs = append(jobs, Job{TaskID: t.ID, TaskDir: dir, Digest: digest, Mode: m, Language: t.Language, Repo: t.Repo,
				LeftOut: pipeline.MeasuredKnownFailures(t), StopWhenNopPasses: t.Mined(), ShareStates: share})
		}
	}
	return jobs, skips
}

// TaskStore is what RecordResults needs of the workspace store.
type TaskStore interface {
	Task(ctx context.Context, id string) (*pipeline.Task, error)
	UpsertTasks(ctx context.Context, tasks []*pipeline.Task) error
	Runs(ctx context.Context, taskID string) ([]*pipeline.Run, error)
}

// RecordResults updates each task from a validation: its status and
// failure class from all its runs on its current files (pipeline.Judge),
// and gold's lists on the task and in its SWE-bench record.
func RecordResults(ctx context.Context, st TaskStore, root string, runs []*pipeline.Run) error {
	changed, err := JudgeRuns(ctx, st, root, runs)
	if err != nil || len(changed) == 0 {
		return err
	}
	return st.UpsertTasks(ctx, changed)
}

// JudgeRuns is RecordResults without the write: the tasks runs change,
// for a caller that stores them with the run that settles them
// (store.SettleRun). A gold run's lists are written into the task's
// SWE-bench record here.
func JudgeRuns(ctx context.Context, st TaskStore, root string, runs []*pipeline.Run) ([]*pipeline.Task, error) {
	byTask := map[string][]*pipeline.Run{}
	var order []string
	for _, r := range runs {
		if r == nil {
			continue
		}
		if _, ok := byTask[r.TaskID]; !ok {
			order = append(order, r.TaskID)
		}
		byTask[r.TaskID] = append(byTask[r.TaskID], r)
	}
	var changed []*pipeline.Task
	for _, id := range order {
		t, err := st.Task(ctx, id)
		if err != nil {
			return nil, err
		}
		touched := false
		for _, r := range byTask[id] {
			// The verdict is about the files the runs saw.
			if r.Digest != "" && r.Digest != t.Digest && r.Outcome.Finished() {
				t.Digest = r.Digest
				touched = true
			}
			if notes := runBuildNotes(r); len(notes) > 0 && r.Digest == t.Digest && !slices.Equal(notes, pipeline.BuildNotes(t)) {
				if t.Extra == nil {
					t.Extra = map[string]any{}
				}
				t.Extra[pipeline.ExtraBuildNotes] = notes
				touched = true
			}
			if r.Mode == ModeGold && r.Outcome == pipeline.OutcomeOK {
				if t.Extra == nil {
					t.Extra = map[string]any{}
				}
				lists := map[string][]string{}
				for list, found := range map[string][]string{"FAIL_TO_PASS": r.FailToPass, "PASS_TO_PASS": r.PassToPass} {
					kept, dropped := t.Labels.Keep(list, found)
					t.Extra[list], lists[list] = nonNilStrings(kept), kept
					delete(t.Extra, list+"_dropped")
					if len(dropped) > 0 {
						t.Extra[list+"_dropped"] = dropped
					}
				}
				touched = true
				if dir, err := ResolveTaskDir(root, t); err == nil {
					if err := UpdateSWEBenchRecord(dir, lists["FAIL_TO_PASS"], lists["PASS_TO_PASS"]); err != nil {
						return nil, err
					}
				}
			}
		}
		stored, err := st.Runs(ctx, id)
		if err != nil {
			return nil, err
		}
		if v := pipeline.Judge(t, withRuns(stored, byTask[id])); v.Decided {
			t.Status, t.Failure = v.Status, v.Failure
			touched = true
		}
		if touched {
			changed = append(changed, t)
		}
	}
	return changed, nil
}

// buildNotesScript prints the notes the image build left
// (pipeline.BuildNotesFile), each after pipeline.BuildNotePrefix, so that
// every run's log has them, a cached build's too; RecordResults keeps them
// on the task.
var buildNotesScript = "if [ -f " + pipeline.BuildNotesFile + " ]; then sed -n 's/^curate: note: /" + pipeline.BuildNotePrefix + "/p' " + pipeline.BuildNotesFile + "; fi\n"

// runBuildNotes are the build notes a run's log printed (buildNotesScript),
// without BuildNotePrefix, each once.
func runBuildNotes(r *pipeline.Run) []string {
	if r.LogPath == "" {
		return nil
	}
	f, err := os.Open(r.LogPath)
	if err != nil {
		return nil
	}
	defer f.Close()
	var notes []string
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 4*1024*1024)
	for sc.Scan() {
		if n, ok := strings.CutPrefix(sc.Text(), pipeline.BuildNotePrefix); ok && !seen[n] {
			seen[n] = true
			notes = append(notes, n)
		}
	}
	return notes
}

// withRuns adds the batch's runs to the stored ones (a batch run replaces
// a stored run of the same id).
func withRuns(stored, batch []*pipeline.Run) []*pipeline.Run {
	seen := map[string]bool{}
	out := append([]*pipeline.Run(nil), batch...)
	for _, r := range batch {
		seen[r.ID] = true
	}
	for _, r := range stored {
		if !seen[r.ID] {
			out = append(out, r)
		}
	}
	return out
}

// NewRunID makes a sortable, unique run id like r261121-150405-3fa9.
func NewRunID() string {
	var b [2]byte
	rand.Read(b[:])
	return "r" + time.Now().UTC().Format("060102-150405") + "-" + hex.EncodeToString(b[:])
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
