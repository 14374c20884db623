package patch

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	gitcmd "curate/internal/git"
)

// Submodule is a git submodule whose files went into a task's archive.
type Submodule struct {
	Path  string   // where the superproject's tree has it
	Files []string // its files, relative to the superproject's root
	// LeftOut says why the clone's copy was not added (its objects are
	// incomplete); Files is empty then.
	LeftOut string
}

// safeModulePath is a submodule path or name that needs no quoting.
var safeModulePath = regexp.MustCompile(`^[A-Za-z0-9_.+-]+(/[A-Za-z0-9_.+-]+)*$`)

// SafeSubmodulePath says whether a submodule's path or name stays inside
// its root and needs no quoting beyond the usual: .gitmodules and the
// tree come from anyone.
func SafeSubmodulePath(p string) bool {
	return safeModulePath.MatchString(p) && !strings.Contains("/"+p+"/", "/../")
}

// ArchiveSubmodules appends to the tar at dest, after Archive, the files
// of each submodule head records whose commit the clone has: a clone made
// with --recurse-submodules keeps a submodule's objects in
// .git/modules/NAME, and `git archive` leaves the folder empty (a
// project whose CMake builds a submodule's sources then fails to
// configure). Submodules the clone lacks are left out; nested submodules
// are not read.
func ArchiveSubmodules(ctx context.Context, repo, head, dest string) ([]Submodule, error) {
	links, err := gitlinks(ctx, repo, head)
	if err != nil || len(links) == 0 {
		return nil, err
	}
	common, err := gitcmd.Output(ctx, repo, "rev-parse", "--path-format=absolute", "--git-common-dir")
	if err != nil {
		return nil, err
	}
	names := submoduleNames(ctx, repo, head)
	var out []Submodule
	for _, l := range links {
		if !SafeSubmodulePath(l.path) {
			continue
		}
		name := names[l.path]
		if name == "" || !SafeSubmodulePath(name) {
			name = l.path
		}
		gitDir := filepath.Join(strings.TrimSpace(string(common)), "modules", filepath.FromSlash(name))
		if fi, err := os.Stat(gitDir); err != nil || !fi.IsDir() {
			continue
		}
		dirArg := "--git-dir=" + gitDir
		if err := gitcmd.Run(ctx, "", nil, dirArg, "cat-file", "-e", l.commit+"^{commit}"); err != nil {
			continue // the clone's copy does not have the commit the tree records
		}
		files, err := gitcmd.Output(ctx, "", dirArg, "ls-tree", "-r", "-z", "--name-only", l.commit)
		if err != nil {
			return nil, err
		}
		sub := Submodule{Path: l.path}
		for _, f := range bytes.Split(files, []byte{0}) {
			if len(f) > 0 {
				sub.Files = append(sub.Files, l.path+"/"+string(f))
			}
		}
		tar := dest + ".sub"
		if err := writeTar(ctx, "", tar, dirArg, "archive", "--format=tar", "--prefix="+l.path+"/", l.commit); err != nil {
			// A copy with the commit but not all its blobs (a partial or
			// interrupted submodule fetch) is left out like a missing one,
			// not the whole build failed (git archive: invalid object).
			os.Remove(tar)
			out = append(out, Submodule{Path: l.path, LeftOut: strings.SplitN(strings.TrimSpace(err.Error()), "\n", 2)[0]})
			continue
		}
		cat := exec.CommandContext(ctx, "tar", "--concatenate", "-f", dest, tar)
		msg, err := cat.CombinedOutput()
		os.Remove(tar)
		if err != nil {
			return nil, fmt.Errorf("add submodule %s to %s: %v: %s", l.path, filepath.Base(dest), err, msg)
		}
		out = append(out, sub)
	}
	return out, nil
}

type gitlink struct{ path, commit string }

// gitlinks are the submodule entries (mode 160000) of the tree at head.
func gitlinks(ctx context.Context, repo, head string) ([]gitlink, error) {
	out, err := gitcmd.Output(ctx, repo, "ls-tree", "-r", "-z", head)
	if err != nil {
		return nil, err
	}
	var links []gitlink
	for _, e := range bytes.Split(out, []byte{0}) {
		meta, p, ok := strings.Cut(string(e), "\t")
		if f := strings.Fields(meta); ok && len(f) == 3 && f[0] == "160000" && f[1] == "commit" {
			links = append(links, gitlink{path: p, commit: f[2]})
		}
	}
	return links, nil
}

// submoduleNames maps a submodule's path to its name in head's
// .gitmodules (the folder under .git/modules); none when it has none.
func submoduleNames(ctx context.Context, repo, head string) map[string]string {
	out, err := gitcmd.Output(ctx, repo, "config", "--blob", head+":.gitmodules", "--get-regexp", `^submodule\..*\.path$`)
	names := map[string]string{}
	if err != nil {
		return names
	}
	for _, line := range strings.Split(string(out), "\n") {
		key, p, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		names[p] = strings.TrimSuffix(strings.TrimPrefix(key, "submodule."), ".path")
	}
	return names
}

// writeTar writes the output of git, run in dir, to path: an archive.
func writeTar(ctx context.Context, dir, path string, args ...string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	err = gitcmd.Run(ctx, dir, f, args...)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
