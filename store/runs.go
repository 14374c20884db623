package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"curate/pipeline"
)

const runColumns = `id, task_id, mode, attempt, outcome, reward, digest, detail, fail_to_pass, pass_to_pass, flaky,
	docker_host, container, pid, log_path, started_at, finished_at, failure, retry, unstable`

// SaveRun inserts or replaces a run record.
func (s *Store) SaveRun(ctx context.Context, r *pipeline.Run) error {
	return s.tx(ctx, func(tx *sql.Tx) error { return s.saveRunTx(ctx, tx, r) })
}

// saveRunTx writes a run record inside tx.
func (s *Store) saveRunTx(ctx context.Context, tx *sql.Tx, r *pipeline.Run) error {
	f2p, _ := json.Marshal(nonNil(r.FailToPass))
	p2p, _ := json.Marshal(nonNil(r.PassToPass))
	flaky, _ := json.Marshal(nonNil(r.Flaky))
	unstable, _ := json.Marshal(nonNil(r.Unstable))
	var reward any
	if r.Reward != nil {
		reward = *r.Reward
	}
	fin := ""
	if !r.FinishedAt.IsZero() {
		fin = r.FinishedAt.UTC().Format(timeFormat)
	}
	_, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO runs (`+runColumns+`) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
		r.ID, r.TaskID, r.Mode, r.Attempt, string(r.Outcome), reward, r.Digest, r.Detail, string(f2p), string(p2p), string(flaky),
		r.DockerHost, r.Container, r.PID, storedDir(s.root, r.LogPath), r.StartedAt.UTC().Format(timeFormat), fin, encodeFailure(r.Failure), r.Retry, string(unstable))
	if err != nil {
		return fmt.Errorf("save run %s: %w", r.ID, s.describe(err))
	}
	return nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Run loads one run.
func (s *Store) Run(ctx context.Context, id string) (*pipeline.Run, error) {
	runs, err := s.queryRuns(ctx, "WHERE id = ?", id)
	if err != nil {
		return nil, err
	}
	if len(runs) == 0 {
		return nil, fmt.Errorf("run %q: %w (see `curate runs`)", id, ErrNotFound)
	}
	return runs[0], nil
}

// Runs lists runs newest first, for one task or (taskID "") all.
func (s *Store) Runs(ctx context.Context, taskID string) ([]*pipeline.Run, error) {
	if taskID == "" {
		return s.queryRuns(ctx, "ORDER BY started_at DESC, id DESC")
	}
	return s.queryRuns(ctx, "WHERE task_id = ? ORDER BY started_at DESC, id DESC", taskID)
}

// RunsByOutcome lists runs with one of the given outcomes, newest first.
func (s *Store) RunsByOutcome(ctx context.Context, outcomes ...pipeline.Outcome) ([]*pipeline.Run, error) {
	all, err := s.Runs(ctx, "")
	if err != nil {
		return nil, err
	}
	want := map[pipeline.Outcome]bool{}
	for _, o := range outcomes {
		want[o] = true
	}
	var out []*pipeline.Run
	for _, r := range all {
		if want[r.Outcome] {
			out = append(out, r)
		}
	}
	return out, nil
}

func (s *Store) queryRuns(ctx context.Context, where string, args ...any) ([]*pipeline.Run, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT "+runColumns+" FROM runs "+where, args...)
	if err != nil {
		return nil, fmt.Errorf("list runs: %w", s.describe(err))
	}
	defer rows.Close()
	var out []*pipeline.Run
	for rows.Next() {
		var r pipeline.Run
		var outcome, f2p, p2p, flaky, unstable, started, finished, failure string
		var reward sql.NullFloat64
		if err := rows.Scan(&r.ID, &r.TaskID, &r.Mode, &r.Attempt, &outcome, &reward, &r.Digest, &r.Detail, &f2p, &p2p, &flaky,
			&r.DockerHost, &r.Container, &r.PID, &r.LogPath, &started, &finished, &failure, &r.Retry, &unstable); err != nil {
			return nil, err
		}
		r.Outcome = pipeline.Outcome(outcome)
		r.LogPath = loadedDir(s.root, r.LogPath)
		if reward.Valid {
			v := reward.Float64
			r.Reward = &v
		}
		_ = decodeJSON(f2p, &r.FailToPass)
		_ = decodeJSON(p2p, &r.PassToPass)
		_ = decodeJSON(flaky, &r.Flaky)
		_ = decodeJSON(unstable, &r.Unstable)
		r.Failure = decodeFailure(failure)
		r.StartedAt, _ = time.Parse(timeFormat, started)
		r.FinishedAt, _ = time.Parse(timeFormat, finished)
		out = append(out, &r)
	}
	return out, rows.Err()
}

// MarkInterrupted marks runs left pending or running by a process that is
// no longer alive as interrupted and returns them, so their containers can
// be removed. alive reports whether a pid still runs curate.
func (s *Store) MarkInterrupted(ctx context.Context, alive func(pid int) bool) ([]*pipeline.Run, error) {
	runs, err := s.RunsByOutcome(ctx, pipeline.OutcomePending, pipeline.OutcomeRunning)
	if err != nil {
		return nil, err
	}
	var dead []*pipeline.Run
	for _, r := range runs {
		if r.PID != 0 && alive(r.PID) {
			continue
		}
		r.Outcome = pipeline.OutcomeInterrupted
		r.Detail = "curate stopped while this run was in flight"
		r.FinishedAt = time.Now().UTC()
		if err := s.SaveRun(ctx, r); err != nil {
			return dead, err
		}
		dead = append(dead, r)
	}
	return dead, nil
}

// encodeFailure stores a failure as JSON, "" for none.
func encodeFailure(f *pipeline.Failure) string {
	if f == nil {
		return ""
	}
	b, _ := json.Marshal(f)
	return string(b)
}

// decodeFailure reads what encodeFailure wrote; anything else is none.
func decodeFailure(s string) *pipeline.Failure {
	if s == "" {
		return nil
	}
	var f pipeline.Failure
	if json.Unmarshal([]byte(s), &f) != nil || f.Class == "" {
		return nil
	}
	return &f
}
