package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"curate/pipeline"
)

// SavePhaseTimes appends measured machine times.
func (s *Store) SavePhaseTimes(ctx context.Context, times []pipeline.PhaseTime) error {
	if len(times) == 0 {
		return nil
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		for _, p := range times {
			var cpu any
			if p.CPUMeasured {
				cpu = p.CPU.Seconds()
			}
			at := p.At
			if at.IsZero() {
				at = time.Now()
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO phase_times (phase, repo, task_id, run_id, wall_s, cpu_s, at) VALUES (?,?,?,?,?,?,?)`,
				p.Phase, p.Repo, p.TaskID, p.RunID, p.Wall.Seconds(), cpu, at.UTC().Format(timeFormat)); err != nil {
				return fmt.Errorf("save %s time: %w", p.Phase, s.describe(err))
			}
		}
		return nil
	})
}

// PhaseTimes lists every measured machine time, oldest first.
func (s *Store) PhaseTimes(ctx context.Context) ([]pipeline.PhaseTime, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT phase, repo, task_id, run_id, wall_s, cpu_s, at FROM phase_times ORDER BY seq`)
	if err != nil {
		return nil, fmt.Errorf("list phase times: %w", s.describe(err))
	}
	defer rows.Close()
	var out []pipeline.PhaseTime
	for rows.Next() {
		var p pipeline.PhaseTime
		var wall float64
		var cpu sql.NullFloat64
		var at string
		if err := rows.Scan(&p.Phase, &p.Repo, &p.TaskID, &p.RunID, &wall, &cpu, &at); err != nil {
			return nil, fmt.Errorf("list phase times: %w", err)
		}
		p.Wall = seconds(wall)
		p.CPU, p.CPUMeasured = seconds(cpu.Float64), cpu.Valid
		p.At, _ = time.Parse(timeFormat, at)
		out = append(out, p)
	}
	return out, rows.Err()
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
