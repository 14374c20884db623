package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"curate/pipeline"
)

const timeFormat = time.RFC3339Nano

// taskColumns are read by every task query, in scanTask's order. failure
// and body are read by Task alone (body can be large; listings read the
// failure from the packed copy).
const taskColumns = `id, benchmark, source, source_path, repo, pr, base_commit, head_commit, title,
	language, category, sdlc_phase, phase_rule, features, score, breakdown,
	difficulty_imported, difficulty_calibrated, difficulty_rule,
	label_difficulty, label_phase, label_category, label_note, excluded, exclude_reason, pinned,
	` + reviewColumns + `,
	status, reasons, task_dir, digest, extra, created_at, updated_at`

// UpsertTasks inserts tasks or updates what a source or a re-score computes,
// in one transaction. The curator's labels are never touched here.
func (s *Store) UpsertTasks(ctx context.Context, tasks []*pipeline.Task) error {
	return s.tx(ctx, func(tx *sql.Tx) error { return s.upsertTasksTx(ctx, tx, tasks) })
}

// upsertTasksTx writes tasks inside tx.
func (s *Store) upsertTasksTx(ctx context.Context, tx *sql.Tx, tasks []*pipeline.Task) error {
	now := time.Now().UTC()
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO tasks (id, benchmark, source, source_path, repo, pr, base_commit, head_commit,
		title, body, language, category, sdlc_phase, phase_rule, features, score, breakdown,
		difficulty_imported, difficulty_calibrated, difficulty_rule, status, reasons, task_dir, digest, extra, created_at, updated_at, packed, failure)
		VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
		ON CONFLICT(id) DO UPDATE SET benchmark=excluded.benchmark, source=excluded.source, source_path=excluded.source_path,
		repo=excluded.repo, pr=excluded.pr, base_commit=excluded.base_commit, head_commit=excluded.head_commit,
		title=excluded.title, body=excluded.body, language=excluded.language, category=excluded.category,
		sdlc_phase=excluded.sdlc_phase, phase_rule=excluded.phase_rule, features=excluded.features, score=excluded.score,
		breakdown=excluded.breakdown, difficulty_imported=excluded.difficulty_imported,
		difficulty_calibrated=excluded.difficulty_calibrated, difficulty_rule=excluded.difficulty_rule,
		status=excluded.status, reasons=excluded.reasons, task_dir=excluded.task_dir, digest=excluded.digest,
		extra=excluded.extra, updated_at=excluded.updated_at, packed=excluded.packed, failure=excluded.failure`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for _, t := range tasks {
		if t.ID == "" {
			return fmt.Errorf("upsert task: empty id (source %s)", t.SourcePath)
		}
		t, big := splitBlobs(t)
		if d := storedDir(s.root, t.TaskDir); d != t.TaskDir {
			c := *t
			c.TaskDir = d
			t = &c
		}
		created := t.CreatedAt
		if created.IsZero() {
			created = now
		}
		features, breakdown, reasons, extra, err := encodeTaskJSON(t)
		if err != nil {
			return fmt.Errorf("upsert task %s: %w", t.ID, err)
		}
		packed, err := packTask(t, created.Format(timeFormat), now.Format(timeFormat))
		if err != nil {
			return fmt.Errorf("upsert task %s: %w", t.ID, err)
		}
		if _, err := stmt.ExecContext(ctx, t.ID, t.Benchmark, t.Source, t.SourcePath, t.Repo, t.PR, t.BaseCommit, t.HeadCommit,
			t.Title, t.Body, t.Language, t.Category, t.SDLCPhase, t.PhaseRule, features, t.Score, breakdown,
			string(t.DifficultyImported), string(t.DifficultyCalibrated), t.DifficultyRule, string(t.Status), reasons,
			t.TaskDir, t.Digest, extra, created.Format(timeFormat), now.Format(timeFormat), packed, encodeFailure(t.Failure)); err != nil {
			return fmt.Errorf("upsert task %s: %w", t.ID, s.describe(err))
		}
		if err := writeBlobs(ctx, tx, t.ID, t.Extra, big); err != nil {
			return fmt.Errorf("upsert task %s: %w", t.ID, s.describe(err))
		}
	}
	return nil
}

func encodeTaskJSON(t *pipeline.Task) (features, breakdown, reasons, extra string, err error) {
	enc := func(v any, empty string) string {
		if err != nil {
			return ""
		}
		b, e := json.Marshal(v)
		if e != nil {
			err = e
			return ""
		}
		if string(b) == "null" {
			return empty
		}
		return string(b)
	}
	return encodeFeatures(t.Features), encodeBreakdown(t.Breakdown), enc(t.Reasons, "[]"), enc(t.Extra, "{}"), err
}

// Task loads one task with its body; a missing id is ErrNotFound.
func (s *Store) Task(ctx context.Context, id string) (*pipeline.Task, error) {
	row := s.db.QueryRowContext(ctx, "SELECT "+taskColumns+", failure, body FROM tasks WHERE id = ?", id)
	t, err := scanTask(row, true)
	if err == nil {
		t.TaskDir = loadedDir(s.root, t.TaskDir)
	}
	if err == sql.ErrNoRows {
		return nil, fmt.Errorf("task %q: %w in this workspace (see `curate list`)", id, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("load task %s: %w", id, s.describe(err))
	}
	if err := s.attachBlobs(ctx, map[string]*pipeline.Task{id: t}); err != nil {
		return nil, err
	}
	return t, nil
}

// Tasks loads every task, ordered by id, without bodies. The table is read
// in rowid order (a sequential scan: ORDER BY id would walk the id index
// and look every row up) in one range per core on separate read
// connections, because decoding rows is CPU-bound and a workspace can hold
// 100,000 tasks; each part is sorted by id and the parts merged.
func (s *Store) Tasks(ctx context.Context) ([]*pipeline.Task, error) {
	var lo, hi sql.NullInt64
	var n int
	if err := s.db.QueryRowContext(ctx, "SELECT min(rowid), max(rowid), count(*) FROM tasks").Scan(&lo, &hi, &n); err != nil {
		return nil, fmt.Errorf("list tasks: %w", s.describe(err))
	}
	if n == 0 {
		return nil, nil
	}
	parts := min(runtime.GOMAXPROCS(0), 4)
	if n < 2000 {
		parts = 1
	}
	span := (hi.Int64 - lo.Int64 + int64(parts)) / int64(parts)
	results := make([][]*pipeline.Task, parts)
	errs := make([]error, parts)
	var wg sync.WaitGroup
	for p := 0; p < parts; p++ {
		from, to := lo.Int64+int64(p)*span, lo.Int64+int64(p+1)*span-1
		wg.Add(1)
		go func(p int) {
			defer wg.Done()
			results[p], errs[p] = s.scanRange(ctx, from, to)
		}(p)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return mergeByID(results, n), nil
}

// scanRange reads the tasks whose rowid is in [from, to], sorted by id.
func (s *Store) scanRange(ctx context.Context, from, to int64) ([]*pipeline.Task, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT "+listColumns+" FROM tasks WHERE rowid BETWEEN ? AND ?", from, to)
	if err != nil {
		return nil, fmt.Errorf("list tasks: %w", s.describe(err))
	}
	defer rows.Close()
	var out []*pipeline.Task
	for rows.Next() {
		t, err := scanListed(rows)
		if err != nil {
			return nil, fmt.Errorf("list tasks: %w", err)
		}
		t.TaskDir = loadedDir(s.root, t.TaskDir)
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, rows.Err()
}

// mergeByID merges lists each sorted by id into one sorted list.
func mergeByID(lists [][]*pipeline.Task, n int) []*pipeline.Task {
	if len(lists) == 1 {
		return lists[0]
	}
	out := make([]*pipeline.Task, 0, n)
	idx := make([]int, len(lists))
	for {
		best := -1
		for i, l := range lists {
			if idx[i] < len(l) && (best < 0 || l[idx[i]].ID < lists[best][idx[best]].ID) {
				best = i
			}
		}
		if best < 0 {
			return out
		}
		out = append(out, lists[best][idx[best]])
		idx[best]++
	}
}

// CountTasks returns how many tasks the workspace has.
func (s *Store) CountTasks(ctx context.Context) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM tasks").Scan(&n)
	return n, err
}

// ResolveID finds a task by exact id, else by a unique prefix, so a curator
// can type the start of a long id.
func (s *Store) ResolveID(ctx context.Context, id string) (string, error) {
	var got string
	err := s.db.QueryRowContext(ctx, "SELECT id FROM tasks WHERE id = ?", id).Scan(&got)
	if err == nil {
		return got, nil
	}
	if err != sql.ErrNoRows {
		return "", s.describe(err)
	}
	esc := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(id)
	rows, err := s.db.QueryContext(ctx, `SELECT id FROM tasks WHERE id LIKE ? ESCAPE '\' ORDER BY id LIMIT 6`, esc+"%")
	if err != nil {
		return "", s.describe(err)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var x string
		if err := rows.Scan(&x); err != nil {
			return "", err
		}
		ids = append(ids, x)
	}
	switch len(ids) {
	case 0:
		return "", fmt.Errorf("task %q: %w in this workspace (see `curate list`)", id, ErrNotFound)
	case 1:
		return ids[0], nil
	}
	return "", fmt.Errorf("task id %q is ambiguous: %s…", id, strings.Join(ids, ", "))
}

type scanner interface{ Scan(...any) error }

func scanTask(r scanner, withBody bool) (*pipeline.Task, error) {
	var t pipeline.Task
	var features, breakdown, reasons, extra, created, updated, failure string
	var dImp, dCal, dLab, status string
	var excluded, pinned int
	dest := []any{&t.ID, &t.Benchmark, &t.Source, &t.SourcePath, &t.Repo, &t.PR, &t.BaseCommit, &t.HeadCommit, &t.Title,
		&t.Language, &t.Category, &t.SDLCPhase, &t.PhaseRule, &features, &t.Score, &breakdown,
		&dImp, &dCal, &t.DifficultyRule,
		&dLab, &t.Labels.Phase, &t.Labels.Category, &t.Labels.Note, &excluded, &t.Labels.ExcludeReason, &pinned,
		&t.Labels.Underspecified, &t.Labels.FalseNegative, &t.Labels.FixTime, &t.Labels.ReviewComment, &t.Labels.Reviewer,
		&t.Labels.Instruction, &t.Labels.TestsDropped,
		&status, &reasons, &t.TaskDir, &t.Digest, &extra, &created, &updated}
	if withBody {
		dest = append(dest, &failure, &t.Body)
	}
	if err := r.Scan(dest...); err != nil {
		return nil, err
	}
	t.DifficultyImported, t.DifficultyCalibrated, t.Labels.Difficulty = pipeline.Difficulty(dImp), pipeline.Difficulty(dCal), pipeline.Difficulty(dLab)
	t.Status = pipeline.Status(status)
	t.Labels.Excluded, t.Labels.Pinned = excluded != 0, pinned != 0
	if err := decodeFeatures(features, &t.Features); err != nil {
		return nil, fmt.Errorf("task %s features: %w", t.ID, err)
	}
	if err := decodeBreakdown(breakdown, &t.Breakdown); err != nil {
		return nil, fmt.Errorf("task %s breakdown: %w", t.ID, err)
	}
	if err := decodeJSON(reasons, &t.Reasons); err != nil {
		return nil, fmt.Errorf("task %s reasons: %w", t.ID, err)
	}
	if err := decodeJSON(extra, &t.Extra); err != nil {
		return nil, fmt.Errorf("task %s extra: %w", t.ID, err)
	}
	t.CreatedAt, _ = time.Parse(timeFormat, created)
	t.UpdatedAt, _ = time.Parse(timeFormat, updated)
	t.Failure = decodeFailure(failure)
	return &t, nil
}

// decodeJSON skips the decoder for the empty values most rows hold.
func decodeJSON(s string, v any) error {
	switch s {
	case "", "{}", "[]", "null":
		return nil
	}
	return json.Unmarshal([]byte(s), v)
}
