package store

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"time"

	"curate/pipeline"
)

// Listings read tens of thousands of tasks, and the SQLite driver pays a
// mutex per column per row, so a task's source and computed fields
// (everything but id, benchmark, body and the curator's labels) are also
// kept packed in one column, written with the plain columns by every write.
// Single-task reads use the plain columns; listings use the packed one.
//
// Format: "1" (the version), then each field as "<byte length>:<bytes>".

const packVersion = "1"

// listColumns are what Tasks reads, in scanListed's order.
// created_at is read from its own column: an upsert keeps the first one,
// which the packed copy cannot know.
const listColumns = `id, benchmark, packed, label_difficulty, label_phase, label_category, label_note, excluded, exclude_reason, pinned, created_at, ` + reviewColumns

// reviewColumns hold the review labels, in Labels' order.
const reviewColumns = `review_underspecified, review_false_negative, review_fix_time, review_comment, reviewer, label_instruction, label_tests_dropped`

func packTask(t *pipeline.Task, created, updated string) (string, error) {
	features, breakdown, reasons, extra, err := encodeTaskJSON(t)
	if err != nil {
		return "", err
	}
	fields := []string{t.Source, t.SourcePath, t.Repo, strconv.Itoa(t.PR), t.BaseCommit, t.HeadCommit, t.Title,
		t.Language, t.Category, t.SDLCPhase, t.PhaseRule, features, strconv.FormatFloat(t.Score, 'g', -1, 64), breakdown,
		string(t.DifficultyImported), string(t.DifficultyCalibrated), t.DifficultyRule, string(t.Status), reasons,
		t.TaskDir, t.Digest, extra, created, updated, encodeFailure(t.Failure)}
	n := 1
	for _, f := range fields {
		n += len(f) + 8
	}
	b := make([]byte, 0, n)
	b = append(b, packVersion...)
	for _, f := range fields {
		b = strconv.AppendInt(b, int64(len(f)), 10)
		b = append(b, ':')
		b = append(b, f...)
	}
	return string(b), nil
}

// packedFieldCount is how many fields packTask writes; rows packed before
// the failure field (the 25th) was added have one fewer.
const packedFieldCount = 25

func unpackTask(s string, t *pipeline.Task) error {
	if s == "" {
		return nil // a row holding only id and benchmark
	}
	if s[:1] != packVersion {
		return fmt.Errorf("packed task: unknown format")
	}
	var f [packedFieldCount]string
	rest := s[1:]
	for i := range f {
		if rest == "" && i == packedFieldCount-1 {
			break // packed before the failure field
		}
		colon := -1
		for j := 0; j < len(rest) && j < 20; j++ {
			if rest[j] == ':' {
				colon = j
				break
			}
		}
		if colon < 0 {
			return fmt.Errorf("packed task: field %d: no length", i)
		}
		n, err := strconv.Atoi(rest[:colon])
		if err != nil || n < 0 || colon+1+n > len(rest) {
			return fmt.Errorf("packed task: field %d: bad length", i)
		}
		f[i] = rest[colon+1 : colon+1+n]
		rest = rest[colon+1+n:]
	}
	if rest != "" {
		return fmt.Errorf("packed task: trailing bytes")
	}
	t.Source, t.SourcePath, t.Repo = f[0], f[1], f[2]
	t.PR, _ = strconv.Atoi(f[3])
	t.BaseCommit, t.HeadCommit, t.Title, t.Language, t.Category, t.SDLCPhase, t.PhaseRule = f[4], f[5], f[6], f[7], f[8], f[9], f[10]
	if err := decodeFeatures(f[11], &t.Features); err != nil {
		return fmt.Errorf("features: %w", err)
	}
	t.Score, _ = strconv.ParseFloat(f[12], 64)
	if err := decodeBreakdown(f[13], &t.Breakdown); err != nil {
		return fmt.Errorf("breakdown: %w", err)
	}
	t.DifficultyImported, t.DifficultyCalibrated, t.DifficultyRule = pipeline.Difficulty(f[14]), pipeline.Difficulty(f[15]), f[16]
	t.Status = pipeline.Status(f[17])
	if err := decodeJSON(f[18], &t.Reasons); err != nil {
		return fmt.Errorf("reasons: %w", err)
	}
	t.TaskDir, t.Digest = f[19], f[20]
	if err := decodeJSON(f[21], &t.Extra); err != nil {
		return fmt.Errorf("extra: %w", err)
	}
	t.CreatedAt, _ = time.Parse(timeFormat, f[22])
	t.UpdatedAt, _ = time.Parse(timeFormat, f[23])
	t.Failure = decodeFailure(f[24])
	return nil
}

// scanListed reads one row of listColumns.
func scanListed(r scanner) (*pipeline.Task, error) {
	var t pipeline.Task
	var packed, dLab, created string
	var excluded, pinned int
	if err := r.Scan(&t.ID, &t.Benchmark, &packed, &dLab, &t.Labels.Phase, &t.Labels.Category, &t.Labels.Note,
		&excluded, &t.Labels.ExcludeReason, &pinned, &created,
		&t.Labels.Underspecified, &t.Labels.FalseNegative, &t.Labels.FixTime, &t.Labels.ReviewComment, &t.Labels.Reviewer,
		&t.Labels.Instruction, &t.Labels.TestsDropped); err != nil {
		return nil, err
	}
	if err := unpackTask(packed, &t); err != nil {
		return nil, fmt.Errorf("task %s: %w", t.ID, err)
	}
	t.CreatedAt, _ = time.Parse(timeFormat, created)
	t.Labels.Difficulty = pipeline.Difficulty(dLab)
	t.Labels.Excluded, t.Labels.Pinned = excluded != 0, pinned != 0
	return &t, nil
}

// backfillPacked fills the packed column of rows written before it existed
// (migration 4), from the plain columns.
func backfillPacked(ctx context.Context, tx *sql.Tx) error {
	tasks, err := scanAll(ctx, tx, "SELECT "+backfillColumns+" FROM tasks")
	if err != nil {
		return err
	}
	for _, t := range tasks {
		p, err := packTask(t, t.CreatedAt.Format(timeFormat), t.UpdatedAt.Format(timeFormat))
		if err != nil {
			return fmt.Errorf("task %s: %w", t.ID, err)
		}
		if _, err := tx.ExecContext(ctx, "UPDATE tasks SET packed = ? WHERE id = ?", p, t.ID); err != nil {
			return err
		}
	}
	return nil
}

// backfillColumns are taskColumns with the review columns (migration 7)
// read as empty, for backfills that run before those columns exist.
var backfillColumns = strings.Replace(taskColumns, reviewColumns, "'', '', '', '', '', '', ''", 1)

// scanAll reads every row of a query over taskColumns (bodies left out),
// for migrations' backfills.
func scanAll(ctx context.Context, tx *sql.Tx, query string, args ...any) ([]*pipeline.Task, error) {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var tasks []*pipeline.Task
	for rows.Next() {
		t, err := scanTask(rows, false)
		if err != nil {
			return nil, err
		}
		tasks = append(tasks, t)
	}
	return tasks, rows.Err()
}
