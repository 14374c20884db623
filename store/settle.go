package store

import (
	"context"
	"database/sql"
	"fmt"

	"curate/pipeline"
)

// SettleRun stores a run and the tasks its result changes in one
// transaction, so no reader ever sees a settling run stored while its
// task's status, class and lists are not.
func (s *Store) SettleRun(ctx context.Context, r *pipeline.Run, tasks []*pipeline.Task) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		if err := s.saveRunTx(ctx, tx, r); err != nil {
			return err
		}
		return s.upsertTasksTx(ctx, tx, tasks)
	})
}

// UnjudgedRuns are the finished runs, on their task's current files, of
// tasks still marked built: what a curate killed between a run and its
// verdict (or an older curate that judged only at the end of a batch)
// left for the next command to judge.
func (s *Store) UnjudgedRuns(ctx context.Context) ([]*pipeline.Run, error) {
	runs, err := s.queryRuns(ctx, `WHERE finished_at != '' AND outcome NOT IN (?, ?) AND task_id IN
		(SELECT t.id FROM tasks t WHERE t.status = ? AND t.digest != '')
		AND digest = (SELECT t.digest FROM tasks t WHERE t.id = runs.task_id)`,
		string(pipeline.OutcomePending), string(pipeline.OutcomeRunning), string(pipeline.StatusBuilt))
	if err != nil {
		return nil, fmt.Errorf("unjudged runs: %w", err)
	}
	return runs, nil
}
