package export

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"curate/internal/atomicfile"
	"curate/internal/scratch"
)

// checkDest refuses a destination that is an existing file, and makes sure
// its parent exists and is a folder.
func checkDest(dest string) error {
	if dest == "" {
		return fmt.Errorf("export: no output folder given (--out DIR)")
	}
	if fi, err := os.Lstat(dest); err == nil {
		if fi.Mode()&fs.ModeSymlink != 0 {
			return fmt.Errorf("export: %s is a symbolic link; give a real folder", dest)
		}
		if !fi.IsDir() {
			return fmt.Errorf("export: %s is a file, not a folder; give a folder for --out", dest)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("export: %w", err)
	}
	parent := filepath.Dir(filepath.Clean(dest))
	if err := os.MkdirAll(parent, 0o755); err != nil { // --out's help promises it is created
		return fmt.Errorf("export: parent folder of %s: %w", dest, unwrapPath(err))
	}
	fi, err := os.Stat(parent)
	if err != nil {
		return fmt.Errorf("export: parent folder of %s: %w", dest, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("export: %s is a file, not a folder", parent)
	}
	return nil
}

// stagingKind names the scratch folders an export stages in.
const stagingKind = "export"

// besideKind names the staging folder made beside dest when the scratch
// root is on another file system (renames cannot cross file systems).
const besideKind = ".curate-export-tmp"

// plan is what a staged export moves into dest once every file is written.
// Writing it is the commit point: a killed export with a plan is finished
// by Recover, one without is dropped.
type plan struct {
	Dest   string   `json:"dest"`
	Add    []string `json:"add"`    // entries of staging/new to move in
	Remove []string `json:"remove"` // entries of the previous export to move out
	Marker string   `json:"marker"` // the marker's new text
}

const planFile = "plan.json"

// WriteDir writes a harbor dataset into dest: fill writes the entries into
// a staging folder (under tempRoot when that is on dest's file system,
// else beside dest), then the previous harbor export's entries are moved
// out and the new ones in, and the marker is rewritten. Entries curate did
// not write are never touched; an export killed part way is finished (once
// staged) or dropped (before) by the next command's Recover.
func WriteDir(dest, tempRoot string, fill func(tmp string) error) (err error) {
	if err := checkDest(dest); err != nil {
		return err
	}
	dest, err = filepath.Abs(dest) // the plan must name it wherever Recover runs
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	atomicfile.RemoveDeadTemps(dest) // of versions that staged beside dest
	parent := filepath.Dir(dest)
	if _, err := scratch.Sweep(parent, map[string]scratch.Recoverer{besideKind: Recover}); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if _, err := checkOwned(dest, "harbor", nil); err != nil {
		return err
	}
	root, kind := tempRoot, stagingKind
	if root != "" {
		os.MkdirAll(root, 0o755) // a failure shows as another device below
	}
	if root == "" || !sameDevice(root, parent) {
		root, kind = parent, besideKind
	}
	st, err := scratch.New(root, kind)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	committed := false
	defer func() {
		if !committed {
			st.Remove()
		}
	}()
	tmp := st.Join("new")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if err := fill(tmp); err != nil {
		return err
	}
	entries, err := os.ReadDir(tmp)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	p := plan{Dest: dest}
	for _, e := range entries {
		p.Add = append(p.Add, e.Name())
	}
	m, err := checkOwned(dest, "harbor", p.Add) // again: the folder may have changed while copying
	if err != nil {
		return err
	}
	for name, format := range m {
		if format == "harbor" {
			p.Remove = append(p.Remove, name)
			delete(m, name)
		}
	}
	for _, name := range p.Add {
		m[name] = "harbor"
	}
	p.Marker = string(m.text())
	data, err := json.Marshal(p)
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(st.Join(planFile), data, 0o644); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	committed = true // from here the moves are finished, now or by Recover
	if err := rollForward(st.Path, p); err != nil {
		st.Release() // the next command finishes it (a workbench lives on)
		return fmt.Errorf("export: moving the new dataset into %s: %w (the next curate command finishes it)", dest, unwrapPath(err))
	}
	return st.Remove()
}

// Recover finishes a staged export whose process died: with a plan it
// makes the moves the plan lists; without one nothing of dest was touched.
// The caller removes the staging folder afterwards.
func Recover(staging string) error {
	data, err := os.ReadFile(filepath.Join(staging, planFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var p plan
	if err := json.Unmarshal(data, &p); err != nil {
		return nil // killed while writing the plan: not committed
	}
	if !filepath.IsAbs(p.Dest) {
		return fmt.Errorf("export plan %s: destination %q is not absolute", staging, p.Dest)
	}
	for _, n := range append(append([]string{}, p.Add...), p.Remove...) {
		if !safeEntry(n) {
			return fmt.Errorf("export plan %s: entry %q is not a plain name", staging, n)
		}
	}
	return rollForward(staging, p)
}

// rollForward moves the previous entries to staging/old and the new ones
// in. Every step checks what is already done, so running it again after a
// kill ends in the same place.
func rollForward(staging string, p plan) error {
	newDir, oldDir := filepath.Join(staging, "new"), filepath.Join(staging, "old")
	if err := os.MkdirAll(p.Dest, 0o755); err != nil {
		return err
	}
	if err := os.MkdirAll(oldDir, 0o755); err != nil {
		return err
	}
	moveOut := func(name string) error {
		d := filepath.Join(p.Dest, name)
		if _, err := os.Lstat(d); err != nil {
			return nil // gone already
		}
		if err := os.RemoveAll(filepath.Join(oldDir, name)); err != nil {
			return err
		}
		return os.Rename(d, filepath.Join(oldDir, name))
	}
	adding := map[string]bool{}
	for _, name := range p.Add {
		adding[name] = true
		src := filepath.Join(newDir, name)
		if _, err := os.Lstat(src); err != nil {
			continue // moved in already
		}
		if err := moveOut(name); err != nil {
			return err
		}
		if err := os.Rename(src, filepath.Join(p.Dest, name)); err != nil {
			return err
		}
	}
	for _, name := range p.Remove {
		if !adding[name] {
			if err := moveOut(name); err != nil {
				return err
			}
		}
	}
	return atomicfile.WriteFile(filepath.Join(p.Dest, MarkerFile), []byte(p.Marker), 0o644)
}

// WriteFiles writes files of format into dir (created when missing), each
// through a temporary file renamed into place; other files in dir are left
// alone, and a file of the same name curate did not write is refused.
// Every file is written before any is renamed, so a failure changes
// nothing; the marker lists them before they land.
func WriteFiles(dir, format string, files map[string]func(io.Writer) error, names []string) error {
	if err := checkDest(dir); err != nil {
		return err
	}
	m, err := checkOwned(dir, format, names)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("export: cannot create %s: %w", dir, unwrapPath(err))
	}
	var pending []*atomicfile.File
	cleanup := func() {
		for _, f := range pending {
			f.Abort()
		}
	}
	for _, name := range names {
		f, err := atomicfile.Create(filepath.Join(dir, name), 0o644)
		if err != nil {
			cleanup()
			return fmt.Errorf("export: cannot write to %s: %w", dir, unwrapPath(err))
		}
		pending = append(pending, f)
		werr := files[name](f)
		if werr == nil {
			werr = f.Close()
		}
		if werr != nil {
			cleanup()
			return fmt.Errorf("export %s: %w", filepath.Join(dir, name), werr)
		}
	}
	for _, name := range names {
		m[name] = format
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, MarkerFile), m.text(), 0o644); err != nil {
		cleanup()
		return fmt.Errorf("export: %w", unwrapPath(err))
	}
	for i, f := range pending {
		if err := f.Rename(); err != nil {
			cleanup()
			return fmt.Errorf("export %s: %w", filepath.Join(dir, names[i]), err)
		}
	}
	pending = nil
	return nil
}

// unwrapPath drops the *PathError wrapper whose temp name would only confuse.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
