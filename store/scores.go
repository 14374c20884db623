package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"curate/pipeline"
)

// UpdateComputed writes only what a re-score computes (language after
// overrides and extra, which records them; features, phase, score,
// breakdown, calibrated difficulty) for
// tasks that exist, in one transaction. Bodies, sources and the curator's
// labels are left alone, so tasks loaded without bodies can be re-scored.
func (s *Store) UpdateComputed(ctx context.Context, tasks []*pipeline.Task) error {
	now := time.Now().UTC().Format(timeFormat)
	return s.tx(ctx, func(tx *sql.Tx) error {
		stmt, err := tx.PrepareContext(ctx, `UPDATE tasks SET language=?, features=?, sdlc_phase=?, phase_rule=?, score=?,
			breakdown=?, difficulty_calibrated=?, difficulty_rule=?, extra=?, updated_at=?, packed=? WHERE id=?`)
		if err != nil {
			return s.describe(err)
		}
		defer stmt.Close()
		for _, t := range tasks {
			t, _ := splitBlobs(t) // blobs are not computed: they stay as stored
			extra, err := json.Marshal(t.Extra)
			if err != nil {
				return fmt.Errorf("update task %s: %w", t.ID, err)
			}
			if string(extra) == "null" {
				extra = []byte("{}")
			}
			// The packed copy is rebuilt from t, which a re-score loads
			// whole (bodies aside, which are not packed).
			packed, err := packTask(t, t.CreatedAt.UTC().Format(timeFormat), now)
			if err != nil {
				return fmt.Errorf("update task %s: %w", t.ID, err)
			}
			if _, err := stmt.ExecContext(ctx, t.Language, encodeFeatures(t.Features), t.SDLCPhase, t.PhaseRule, t.Score,
				encodeBreakdown(t.Breakdown), string(t.DifficultyCalibrated), t.DifficultyRule, string(extra), now, packed, t.ID); err != nil {
				return fmt.Errorf("update task %s: %w", t.ID, s.describe(err))
			}
		}
		return nil
	})
}
