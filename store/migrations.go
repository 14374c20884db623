package store

import (
	"context"
	"database/sql"
	"fmt"
)

// migrations are applied in order, forward only; the database's
// PRAGMA user_version is the number applied. Never edit a shipped entry:
// append a new one.
var migrations = []string{
	// 1: tasks and the label event log.
	`CREATE TABLE tasks (
		id TEXT PRIMARY KEY,
		benchmark TEXT NOT NULL DEFAULT '',
		source TEXT NOT NULL DEFAULT '',
		source_path TEXT NOT NULL DEFAULT '',
		repo TEXT NOT NULL DEFAULT '',
		pr INTEGER NOT NULL DEFAULT 0,
		base_commit TEXT NOT NULL DEFAULT '',
		head_commit TEXT NOT NULL DEFAULT '',
		title TEXT NOT NULL DEFAULT '',
		body TEXT NOT NULL DEFAULT '',
		language TEXT NOT NULL DEFAULT '',
		category TEXT NOT NULL DEFAULT '',
		sdlc_phase TEXT NOT NULL DEFAULT '',
		phase_rule TEXT NOT NULL DEFAULT '',
		features TEXT NOT NULL DEFAULT '{}',
		score REAL NOT NULL DEFAULT 0,
		breakdown TEXT NOT NULL DEFAULT '{}',
		difficulty_imported TEXT NOT NULL DEFAULT '',
		difficulty_calibrated TEXT NOT NULL DEFAULT '',
		difficulty_rule TEXT NOT NULL DEFAULT '',
		label_difficulty TEXT NOT NULL DEFAULT '',
		label_phase TEXT NOT NULL DEFAULT '',
		label_category TEXT NOT NULL DEFAULT '',
		label_note TEXT NOT NULL DEFAULT '',
		excluded INTEGER NOT NULL DEFAULT 0,
		exclude_reason TEXT NOT NULL DEFAULT '',
		pinned INTEGER NOT NULL DEFAULT 0,
		status TEXT NOT NULL DEFAULT '',
		reasons TEXT NOT NULL DEFAULT '[]',
		task_dir TEXT NOT NULL DEFAULT '',
		digest TEXT NOT NULL DEFAULT '',
		extra TEXT NOT NULL DEFAULT '{}',
		created_at TEXT NOT NULL DEFAULT '',
		updated_at TEXT NOT NULL DEFAULT ''
	);
	CREATE INDEX tasks_benchmark ON tasks(benchmark);
	CREATE TABLE batches (
		id INTEGER PRIMARY KEY AUTOINCREMENT,
		kind TEXT NOT NULL,
		ref INTEGER NOT NULL DEFAULT 0,
		time TEXT NOT NULL,
		actor TEXT NOT NULL
	);
	CREATE TABLE events (
		seq INTEGER PRIMARY KEY AUTOINCREMENT,
		batch INTEGER NOT NULL REFERENCES batches(id),
		time TEXT NOT NULL,
		actor TEXT NOT NULL,
		task_id TEXT NOT NULL,
		field TEXT NOT NULL,
		old TEXT NOT NULL,
		new TEXT NOT NULL,
		note TEXT NOT NULL DEFAULT ''
	);
	CREATE INDEX events_task ON events(task_id, seq);
	CREATE INDEX events_batch ON events(batch);`,

	// 2: validation runs.
	`CREATE TABLE runs (
		id TEXT PRIMARY KEY,
		task_id TEXT NOT NULL,
		mode TEXT NOT NULL,
		attempt INTEGER NOT NULL DEFAULT 1,
		outcome TEXT NOT NULL,
		reward REAL,
		digest TEXT NOT NULL DEFAULT '',
		detail TEXT NOT NULL DEFAULT '',
		fail_to_pass TEXT NOT NULL DEFAULT '[]',
		pass_to_pass TEXT NOT NULL DEFAULT '[]',
		flaky TEXT NOT NULL DEFAULT '[]',
		docker_host TEXT NOT NULL DEFAULT '',
		container TEXT NOT NULL DEFAULT '',
		pid INTEGER NOT NULL DEFAULT 0,
		log_path TEXT NOT NULL DEFAULT '',
		started_at TEXT NOT NULL DEFAULT '',
		finished_at TEXT NOT NULL DEFAULT ''
	);
	CREATE INDEX runs_task ON runs(task_id, started_at);
	CREATE INDEX runs_outcome ON runs(outcome);`,

	// 3: named selections.
	`CREATE TABLE selections (
		name TEXT PRIMARY KEY,
		created_at TEXT NOT NULL,
		source TEXT NOT NULL DEFAULT '',
		config TEXT NOT NULL DEFAULT '{}',
		stats TEXT NOT NULL DEFAULT '{}'
	);
	CREATE TABLE selection_tasks (
		selection TEXT NOT NULL REFERENCES selections(name) ON DELETE CASCADE,
		task_id TEXT NOT NULL,
		rationale TEXT NOT NULL DEFAULT '',
		rank INTEGER NOT NULL DEFAULT 0,
		PRIMARY KEY (selection, task_id)
	);`,

	// 4: the packed copy of each task's fields that listings read (see
	// packed.go); backfilled by backfills[4].
	`ALTER TABLE tasks ADD COLUMN packed TEXT NOT NULL DEFAULT '';`,

	// 5: large Extra values apart from listings (see blobs.go);
	// backfilled by backfills[5].
	`CREATE TABLE task_blobs (
		task_id TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
		key TEXT NOT NULL,
		value TEXT NOT NULL,
		PRIMARY KEY (task_id, key)
	);`,

	// 6: the failure class of a run and of a task (JSON of
	// pipeline.Failure, empty when none); packed copies gain it when the
	// task is next written.
	`ALTER TABLE runs ADD COLUMN failure TEXT NOT NULL DEFAULT '';
	ALTER TABLE tasks ADD COLUMN failure TEXT NOT NULL DEFAULT '';`,
	// 7: the human review (SWE-bench Verified shape), as label columns.
	`ALTER TABLE tasks ADD COLUMN review_underspecified TEXT NOT NULL DEFAULT '';
	ALTER TABLE tasks ADD COLUMN review_false_negative TEXT NOT NULL DEFAULT '';
	ALTER TABLE tasks ADD COLUMN review_fix_time TEXT NOT NULL DEFAULT '';
	ALTER TABLE tasks ADD COLUMN review_comment TEXT NOT NULL DEFAULT '';
	ALTER TABLE tasks ADD COLUMN reviewer TEXT NOT NULL DEFAULT '';`,
	// 8 (branch engine): how a run moved engines, e.g. "retried on
	// unix:///... after tcp://... stopped answering"; empty when it did not.
	`ALTER TABLE runs ADD COLUMN retry TEXT NOT NULL DEFAULT '';`,
	// 9: task dirs inside the workspace are stored relative to it (a moved
	// workspace keeps them); backfilled by backfills[9] from the absolute
	// paths stored before.
	`SELECT 1;`,
	// 10: a gold run's unstable test ids (seen in one run of a state only).
	`ALTER TABLE runs ADD COLUMN unstable TEXT NOT NULL DEFAULT '[]';`,
	// 11: the curator's problem statement and the tests a curator dropped
	// (labels: events with undo and redo).
	`ALTER TABLE tasks ADD COLUMN label_instruction TEXT NOT NULL DEFAULT '';
	ALTER TABLE tasks ADD COLUMN label_tests_dropped TEXT NOT NULL DEFAULT '';`,
	// 12: run logs inside the workspace are stored relative to it (a
	// copied workspace reads its own logs, a moved one keeps them);
	// backfilled by backfills[12] from the absolute paths stored before.
	`SELECT 1;`,
	// 13: machine time per phase (pipeline.PhaseTime), one row per piece
	// of work; cpu_s NULL where nothing accounted it. A table apart from
	// runs: mines, environment checks and image builds are no run.
	`CREATE TABLE phase_times (
		seq INTEGER PRIMARY KEY AUTOINCREMENT,
		phase TEXT NOT NULL,
		repo TEXT NOT NULL DEFAULT '',
		task_id TEXT NOT NULL DEFAULT '',
		run_id TEXT NOT NULL DEFAULT '',
		wall_s REAL NOT NULL,
		cpu_s REAL,
		at TEXT NOT NULL
	);`,
}

// backfills run in the same transaction right after the migration of the
// same number, for data changes SQL alone cannot make.
var backfills = map[int]func(context.Context, *sql.Tx, string) error{
	4:  func(ctx context.Context, tx *sql.Tx, _ string) error { return backfillPacked(ctx, tx) },
	5:  func(ctx context.Context, tx *sql.Tx, _ string) error { return backfillBlobs(ctx, tx) },
	9:  backfillRelativeDirs,
	12: backfillRelativeLogs,
}

// SchemaVersion is the version a freshly migrated database has.
func SchemaVersion() int { return len(migrations) }

// migrate applies every migration past the stored version, each in its own
// transaction together with the version bump.
func (s *Store) migrate(ctx context.Context) error {
	var v int
	if err := s.wdb.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return err
	}
	if err := migrateTo(ctx, s.wdb, len(migrations), s.root); err != nil {
		return err
	}
	if v > 0 && v < len(migrations) {
		s.upgradedFrom = v
	}
	return nil
}

func migrateTo(ctx context.Context, db *sql.DB, target int, root string) error {
	var v int
	if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return err
	}
	if v > len(migrations) {
		return fmt.Errorf("schema version %d is newer than this curate understands (%d); upgrade curate", v, len(migrations))
	}
	for i := v; i < target; i++ {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, migrations[i]); err != nil {
			tx.Rollback()
			return fmt.Errorf("migration %d: %w", i+1, err)
		}
		if fill := backfills[i+1]; fill != nil {
			if err := fill(ctx, tx, root); err != nil {
				tx.Rollback()
				return fmt.Errorf("migration %d: %w", i+1, err)
			}
		}
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", i+1)); err != nil {
			tx.Rollback()
			return fmt.Errorf("migration %d: %w", i+1, err)
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("migration %d: %w", i+1, err)
		}
	}
	return nil
}
