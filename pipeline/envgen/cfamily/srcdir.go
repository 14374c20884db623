package cfamily

import (
	"path"
	"sort"
	"strings"
)

// SourceDir is the folder whose build files build the project: "" (the
// root) when the root has a build system, else a top-level folder with
// one. Some projects keep theirs beside other top-level folders (the
// library in expat/, a test/Makefile in a header-only library's early
// history). Of several, the one holding the PR's test files wins, then
// the one with the most C/C++ sources.
func SourceDir(files, tests []string) string {
	if BuildSystem(files) != "" {
		return ""
	}
	var dirs []string
	for _, f := range files {
		d, name, ok := strings.Cut(f, "/")
		if ok && !strings.Contains(name, "/") && BuildSystem([]string{name}) != "" && !contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	if len(dirs) == 0 {
		return ""
	}
	score := func(d string) (int, int) {
		t, s := 0, 0
		for _, f := range tests {
			if strings.HasPrefix(f, d+"/") {
				t++
			}
		}
		for _, f := range files {
			if e := strings.ToLower(path.Ext(f)); strings.HasPrefix(f, d+"/") && (cExts[e] || cxxExts[e]) {
				s++
			}
		}
		return t, s
	}
	sort.SliceStable(dirs, func(i, j int) bool {
		ti, si := score(dirs[i])
		tj, sj := score(dirs[j])
		if ti != tj {
			return ti > tj
		}
		if si != sj {
			return si > sj
		}
		return dirs[i] < dirs[j]
	})
	return dirs[0]
}

// under lists the files of dir with paths relative to it (all files for
// the root).
func under(files []string, dir string) []string {
	if dir == "" {
		return files
	}
	var out []string
	for _, f := range files {
		if rest, ok := strings.CutPrefix(f, dir+"/"); ok {
			out = append(out, rest)
		}
	}
	return out
}

// join is dir/name, or name for the root.
func join(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}
