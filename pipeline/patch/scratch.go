package patch

import (
	"os"
	"path/filepath"

	"curate/internal/scratch"
)

// ScratchDir makes an empty folder to work in and returns it with the
// function that removes it. With root (the workspace's .curate/tmp) it is
// a scratch folder of kind there, swept by the next command when this
// process is killed; without, a folder named pattern* in dir ("" = the
// system's temporary folder).
func ScratchDir(root, kind, dir, pattern string) (string, func(), error) {
	if root == "" {
		p, err := os.MkdirTemp(dir, pattern)
		if err != nil {
			return "", nil, err
		}
		if err := os.Chmod(p, 0o755); err != nil {
			os.RemoveAll(p)
			return "", nil, err
		}
		return p, func() { os.RemoveAll(p) }, nil
	}
	d, err := scratch.New(root, kind)
	if err != nil {
		return "", nil, err
	}
	p := filepath.Join(d.Path, "w")
	if err := os.Mkdir(p, 0o755); err != nil {
		d.Remove()
		return "", nil, err
	}
	return p, func() { d.Remove() }, nil
}
