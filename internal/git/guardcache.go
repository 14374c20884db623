package git

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
)

// A guard is computed from config files; it stays valid while each of
// them (and the user's config files, which may appear later) is the same
// file with the same size and modification time.

type guard struct {
	settings  []setting
	protocols []string
	files     []stamp
}

// stamp is what a config file looked like when its guard was computed.
type stamp struct {
	path       string
	exists     bool
	size, mtim int64
	ino        uint64
}

var (
	guardsMu sync.Mutex
	guards   = map[string]*guard{}
)

// cacheKey names a call's repository: its folder, the global options
// that choose the repository and the environment git reads.
func cacheKey(dir string, env, globalOpts []string) string {
	if dir == "" {
		dir, _ = os.Getwd()
	}
	return dir + "\x00" + strings.Join(globalOpts, "\x00") + "\x00\x00" + strings.Join(env, "\x00")
}

// cached is the guard kept under key, if its files have not changed.
func cached(key string) (*guard, bool) {
	guardsMu.Lock()
	g := guards[key]
	guardsMu.Unlock()
	if g == nil {
		return nil, false
	}
	for _, f := range g.files {
		if stampOf(f.path) != f {
			return nil, false
		}
	}
	return g, true
}

// remember keeps a guard when every file it came from can be watched:
// each file origin of entries (relative ones are under cwd), and the
// user's config files, present or not. Config with includes is not kept.
func remember(key string, entries []entry, settings []setting, protocols []string, cwd string, env []string) {
	g := &guard{settings: settings, protocols: protocols}
	seen := map[string]bool{}
	watch := func(p string, mustExist bool) bool {
		if seen[p] {
			return true
		}
		seen[p] = true
		st := stampOf(p)
		g.files = append(g.files, st)
		return st.exists || !mustExist
	}
	for _, p := range userConfigFiles(env) {
		watch(p, false)
	}
	for _, e := range entries {
		if section, _, key := splitKey(e.name); key == "path" && (section == "include" || section == "includeif") {
			return // an include may name a file that appears later: read again each time
		}
		p, ok := strings.CutPrefix(e.origin, "file:")
		if !ok {
			continue // command line, blob: not files
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(cwd, p)
		}
		if !watch(p, true) {
			return // a file git read is not where we look: do not keep
		}
	}
	guardsMu.Lock()
	guards[key] = g
	guardsMu.Unlock()
}

// userConfigFiles are ~/.gitconfig and the XDG git config, as git finds
// them from env.
func userConfigFiles(env []string) []string {
	get := func(name string) string {
		v := ""
		for _, kv := range env {
			if k, val, ok := strings.Cut(kv, "="); ok && k == name {
				v = val
			}
		}
		return v
	}
	home, xdg := get("HOME"), get("XDG_CONFIG_HOME")
	if xdg == "" && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	var out []string
	if home != "" {
		out = append(out, filepath.Join(home, ".gitconfig"))
	}
	if xdg != "" {
		out = append(out, filepath.Join(xdg, "git", "config"))
	}
	return out
}

func stampOf(path string) stamp {
	fi, err := os.Stat(path)
	if err != nil {
		return stamp{path: path}
	}
	st := stamp{path: path, exists: true, size: fi.Size(), mtim: fi.ModTime().UnixNano()}
	if sys, ok := fi.Sys().(*syscall.Stat_t); ok {
		st.ino = sys.Ino
	}
	return st
}

// workDir is the folder git runs in: dir, then each -C DIR in turn.
func workDir(dir string, globalOpts []string) string {
	if dir == "" {
		dir, _ = os.Getwd()
	}
	for i := 0; i+1 < len(globalOpts); i++ {
		if globalOpts[i] == "-C" {
			if c := globalOpts[i+1]; filepath.IsAbs(c) {
				dir = c
			} else {
				dir = filepath.Join(dir, c)
			}
			i++
		}
	}
	return dir
}
