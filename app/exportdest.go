package app

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"curate/pipeline/export"
	"curate/pipeline/sanitize"
	"curate/workspace"
)

// WriteExport writes in as format into dest, after refusing a dest where
// an export could destroy the workspace itself: its root, tasks/, .curate/
// (or anything inside those two), or any folder that holds the workspace.
// A format that ships tasks refuses selected tasks that are not validated
// valid unless allowUnvalidated. `curate export` and the Export screen
// both write through here.
func WriteExport(ws *workspace.Workspace, format, dest string, in *export.Input, allowUnvalidated bool) (*export.Summary, error) {
	if err := checkExportDest(ws, dest); err != nil {
		return nil, err
	}
	if bad := Unvalidated(in); ShipsTasks(format) && len(bad) > 0 && !allowUnvalidated {
		return nil, fmt.Errorf("export %s: nothing written: %d of %d selected task(s) are not validated valid: %s; validate them (curate validate), select only valid tasks (curate select --filter 'status=valid'), or export with --allow-unvalidated",
			format, len(bad), len(in.Selected), sanitize.Line(FirstFew(bad, 10)))
	}
	in.Scratch = ws.TmpPath()
	return export.Write(format, dest, in)
}

func checkExportDest(ws *workspace.Workspace, dest string) error {
	if dest == "" {
		return fmt.Errorf("export: no output folder given (--out DIR)")
	}
	abs, err := filepath.Abs(dest)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	real := resolveExisting(abs)
	root := resolveExisting(ws.Root)
	inside := func(base, p string) bool {
		rel, err := filepath.Rel(base, p)
		return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
	}
	switch {
	case real == root:
		return fmt.Errorf("export: %s is the workspace itself; give a folder of its own, e.g. --out export/", dest)
	case inside(filepath.Join(root, workspace.TasksDir), real):
		return fmt.Errorf("export: %s is inside the workspace's %s/ folder, which curate manages; give a folder of its own", dest, workspace.TasksDir)
	case inside(filepath.Join(root, workspace.StateDir), real):
		return fmt.Errorf("export: %s is inside the workspace's %s/ folder (its database and runs); give a folder of its own", dest, workspace.StateDir)
	case inside(real, root):
		return fmt.Errorf("export: %s holds the workspace %s; give a folder of its own", dest, ws.Root)
	}
	return nil
}

// resolveExisting resolves the symbolic links of the longest existing
// prefix of the absolute path p and keeps the rest as written.
func resolveExisting(p string) string {
	p = filepath.Clean(p)
	var rest []string
	for {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(append([]string{r}, rest...)...)
		} else if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, os.ErrInvalid) {
			return filepath.Join(append([]string{p}, rest...)...)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return filepath.Join(append([]string{p}, rest...)...)
		}
		rest = append([]string{filepath.Base(p)}, rest...)
		p = parent
	}
}

// FirstFew joins the first n of s and says how many more there are.
func FirstFew(s []string, n int) string {
	if len(s) <= n {
		return strings.Join(s, ", ")
	}
	return strings.Join(s[:n], ", ") + fmt.Sprintf(", and %d more", len(s)-n)
}
