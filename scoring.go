package main

import (
	"curate/pipeline"
	"curate/workspace"
)

// scoreWith applies the workspace's profile (phase, MCP score, calibrated
// difficulty) to tasks from any source, so mined and built tasks are
// scored exactly like imported ones.
func scoreWith(ws *workspace.Workspace, tasks ...*pipeline.Task) error {
	s, _, err := loadScorer(ws, "")
	if err != nil {
		return err
	}
	for _, t := range tasks {
		s.Apply(t)
	}
	return nil
}
