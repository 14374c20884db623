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
// the one with the most C/C++ sources. A root with CMake or Meson files
// that do not reach the PR's tests' folder gives way to that folder's own
// Makefile (see testsOwnMakefile).
func SourceDir(files, tests []string) string {
	if root := BuildSystem(files); root == "cmake" || root == "meson" {
		return testsOwnMakefile(files, tests, root)
	} else if root != "" {
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

// testsOwnMakefile is the top-level folder holding the PR's C/C++ test
// files when a Makefile there builds them and the root's CMake or Meson
// files cannot (the folder has no CMakeLists.txt or meson.build): the
// root's build only installs the library and the CI runs make in that
// folder (a header-only library's test/Makefile, 2015-2021). "" otherwise.
func testsOwnMakefile(files, tests []string, root string) string {
	d := ""
	for _, f := range tests {
		if e := strings.ToLower(path.Ext(f)); !cExts[e] && !cxxExts[e] {
			continue
		}
		top, _, ok := strings.Cut(f, "/")
		if !ok || (d != "" && top != d) {
			return ""
		}
		d = top
	}
	if d == "" {
		return ""
	}
	own := map[string]string{"cmake": "CMakeLists.txt", "meson": "meson.build"}[root]
	makefile := false
	for _, f := range files {
		rest, ok := strings.CutPrefix(f, d+"/")
		if !ok {
			continue
		}
		if path.Base(rest) == own {
			return ""
		}
		makefile = makefile || rest == "Makefile" || rest == "makefile" || rest == "GNUmakefile"
	}
	if !makefile {
		return ""
	}
	return d
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
