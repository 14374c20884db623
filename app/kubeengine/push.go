package kubeengine

import (
	"context"
	"fmt"
	"io"

	"curate/pipeline"
	"curate/pipeline/validate"
	"curate/workspace"
)

// Pushed is one task's image in the cluster's registry.
type Pushed struct {
	TaskID string `json:"task"`
	Ref    string `json:"image"` // by digest
	Bytes  int64  `json:"bytes_sent"`
}

// Push builds (when needed) each task's environment image on the local
// engine and pushes it to [kubernetes] registry ahead of validation; an
// image several tasks share is pushed once, and layers the registry has
// are not sent again. Build output goes to out.
func Push(ctx context.Context, ws *workspace.Workspace, tasks []*pipeline.Task, out io.Writer) ([]Pushed, error) {
	r, err := Open(ctx, ws, out)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var res []Pushed
	for _, t := range tasks {
		dir, err := validate.ResolveTaskDir(ws.Root, t)
		if err != nil {
			return res, fmt.Errorf("%s: %w", t.ID, err)
		}
		ref, n, err := r.Publish(ctx, dir, out)
		if err != nil {
			return res, fmt.Errorf("%s: %w", t.ID, err)
		}
		res = append(res, Pushed{TaskID: t.ID, Ref: ref, Bytes: n})
	}
	return res, nil
}
