package app

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"curate/pipeline"
	"curate/pipeline/export"
	"curate/pipeline/sanitize"
	"curate/workspace"
)

// ExportRequest is one export of a selection in one or more formats.
type ExportRequest struct {
	Formats []string
	Dest    string
	// AllowUnvalidated lets the formats that ship tasks write selected
	// tasks that are not validated valid.
	AllowUnvalidated bool
	// Org overrides [export] org; GitURL and GitCommit fill Harbor's
	// registry entries.
	Org, GitURL, GitCommit string
	// Unsaved says the selection is a solve not stored yet (the Export
	// screen): it is stored only when at least one format was written,
	// and records the formats written (stats "exports").
	Unsaved bool
}

// FormatResult is what became of one format: written (Summary), or not,
// with the one-line reason (Err).
type FormatResult struct {
	Format  string
	Summary *export.Summary
	Err     error
}

// Reason is the failure as one line that names the format.
func (r FormatResult) Reason() string {
	if r.Err == nil {
		return ""
	}
	msg := sanitize.Line(r.Err.Error())
	if !strings.HasPrefix(msg, "export "+r.Format) {
		msg = "export " + r.Format + ": " + msg
	}
	return msg
}

// ExportOutcome is every format's result, in the order asked, and
// whether the selection was stored by this export (Unsaved requests).
type ExportOutcome struct {
	Selection string
	Results   []FormatResult
	Saved     bool
}

// Failed are the formats that were not written.
func (o *ExportOutcome) Failed() []FormatResult {
	var out []FormatResult
	for _, r := range o.Results {
		if r.Err != nil {
			out = append(out, r)
		}
	}
	return out
}

// Written are the summaries of the formats that were written.
func (o *ExportOutcome) Written() []*export.Summary {
	var out []*export.Summary
	for _, r := range o.Results {
		if r.Summary != nil {
			out = append(out, r.Summary)
		}
	}
	return out
}

// Export writes sel in each requested format into req.Dest. A format that
// fails does not stop the others: each gets its own result. Only what
// concerns every format (an unknown format, a destination inside the
// workspace, a cancelled ctx before anything started) is an error.
// `curate export` and the Export screen both export through here.
func Export(ctx context.Context, ws *workspace.Workspace, sel *pipeline.Selection, req ExportRequest) (*ExportOutcome, error) {
	if len(req.Formats) == 0 {
		return nil, fmt.Errorf("export: no format given (want one or more of %s)", strings.Join(export.Formats, ", "))
	}
	for _, f := range req.Formats {
		if !slices.Contains(export.Formats, f) {
			return nil, fmt.Errorf("export: unknown format %q (want one of %s)", f, strings.Join(export.Formats, ", "))
		}
	}
	if err := checkExportDest(ws, req.Dest); err != nil {
		return nil, err
	}
	out := &ExportOutcome{Selection: sel.Name}
	for _, f := range dedupe(req.Formats) {
		if err := ctx.Err(); err != nil {
			out.Results = append(out.Results, FormatResult{Format: f, Err: fmt.Errorf("export %s: not written: cancelled", f)})
			continue
		}
		sum, err := exportOne(ctx, ws, sel, f, req)
		out.Results = append(out.Results, FormatResult{Format: f, Summary: sum, Err: err})
	}
	if req.Unsaved && len(out.Written()) > 0 {
		if err := saveExported(ctx, ws, sel, out.Written()); err != nil {
			return out, err
		}
		out.Saved = true
	}
	return out, nil
}

func exportOne(ctx context.Context, ws *workspace.Workspace, sel *pipeline.Selection, format string, req ExportRequest) (*export.Summary, error) {
	in, err := ExportInput(ctx, ws, sel, format, req.GitURL, req.GitCommit)
	if err != nil {
		return nil, err
	}
	if req.Org != "" {
		in.Org = req.Org // else [export] org
	}
	return WriteExport(ws, format, req.Dest, in, req.AllowUnvalidated)
}

// saveExported stores an unsaved selection with the formats written.
func saveExported(ctx context.Context, ws *workspace.Workspace, sel *pipeline.Selection, written []*export.Summary) error {
	if sel.Stats == nil {
		sel.Stats = map[string]any{}
	}
	var rec []map[string]any
	for _, s := range written {
		rec = append(rec, map[string]any{"format": s.Format, "out": s.Out, "files": s.Files})
	}
	sel.Stats["exports"] = rec
	if err := ws.Store.SaveSelection(ctx, sel); err != nil {
		return fmt.Errorf("save selection %s: %w", sanitize.Line(sel.Name), err)
	}
	return nil
}

func dedupe(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
