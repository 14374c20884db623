package cfamily

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"curate/pipeline/envgen"
	"curate/pipeline/patch"
)

// submodule is one .gitmodules entry.
type submodule struct{ path, url string }

// missingSubmodules are the .gitmodules entries with no files in the tree
// (a mirror or a clone without --recurse-submodules).
func missingSubmodules(tree *envgen.Tree) []submodule {
	var out []submodule
	var cur *submodule
	for _, line := range strings.Split(tree.Text(".gitmodules"), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			out = append(out, submodule{})
			cur = &out[len(out)-1]
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok || cur == nil {
			continue
		}
		switch strings.TrimSpace(k) {
		case "path":
			cur.path = strings.TrimSpace(v)
		case "url":
			cur.url = strings.TrimSpace(v)
		}
	}
	var missing []submodule
	for _, m := range out {
		p := strings.TrimSuffix(m.path, "/")
		if !patch.SafeSubmodulePath(p) || len(tree.Glob(p+"/*")) > 0 {
			continue
		}
		missing = append(missing, submodule{path: p, url: m.url})
	}
	return missing
}

// isGoogleTest says whether a submodule's URL is a GoogleTest repository
// (…/googletest, …/googletest.git): Debian's googletest package ships its
// source, with its CMakeLists.txt, in /usr/src/googletest.
func isGoogleTest(url string) bool { return repoName(url) == "googletest" }

func repoName(url string) string {
	return strings.ToLower(strings.TrimSuffix(path.Base(strings.TrimRight(url, "/")), ".git"))
}

// standIn is how Debian fills a test framework's submodule: the package,
// a file the filled folder has, and the copy (%[1]s is the quoted path).
type standIn struct{ pkg, has, fill, from string }

// standIns are the frameworks Debian has a stand-in for, by repository
// name: GoogleTest's source (a project builds it with add_subdirectory),
// doctest's header (a project puts the submodule's doctest/ folder on its
// include path: a TOML library's tests did not compile without it).
var standIns = map[string]standIn{
	"googletest": {"googletest", "CMakeLists.txt", "mkdir -p %[1]s && cp -a /usr/src/googletest/. %[1]s/", "Debian's googletest source (/usr/src/googletest)"},
	"doctest":    {"doctest-dev", "doctest/doctest.h", "mkdir -p %[1]s/doctest && cp -a /usr/include/doctest/. %[1]s/doctest/", "Debian's doctest header (/usr/include/doctest)"},
}

// submoduleSteps plans for the submodules the archive lacks: a GoogleTest
// submodule is filled from Debian's source of it (a project that pins
// GoogleTest as a submodule builds it with add_subdirectory), and the
// others are named, so that a configure step that fails on one of them
// is deps_missing naming it (CURATE_MISSING_SUBMODULES, read by
// curate-cbuild). It returns the install steps that fill them.
func submoduleSteps(p *envgen.Plan, tree *envgen.Tree, testFiles []string) []string {
	var steps, other []string
	missing := missingSubmodules(tree)
	if sub, file, inc := includedSubmodule(tree, testFiles, missing); sub != "" {
		// The PR's tests cannot compile without it: the image build says
		// so at once (deps_missing), not the Oracle after a full build.
		msg := fmt.Sprintf("curate: deps_missing: git submodule %s: %s, a test file of the PR, includes %s (not in the repository archive: mine from a clone made with --recurse-submodules)", sub, file, inc)
		return []string{"echo " + envgen.ShellQuote(msg) + " >&2; exit 1"}
	}
	for _, m := range missing {
		si, ok := standIns[repoName(m.url)]
		if !ok {
			other = append(other, m.path)
			continue
		}
		q := envgen.ShellQuote(m.path)
		steps = append(steps, "[ -e "+q+"/"+si.has+" ] || { "+fmt.Sprintf(si.fill, q)+"; }")
		if !contains(p.Packages, si.pkg) {
			p.Packages = append(p.Packages, si.pkg)
		}
		p.Note("git submodule %s (%s) not in the repository archive: %s stands in", m.path, repoName(m.url), si.from)
	}
	if len(other) > 0 {
		p.Env = append(p.Env, "CURATE_MISSING_SUBMODULES="+strings.Join(other, ":"))
		p.Note("git submodules not in the repository archive: %s (a configure step that needs them fails as deps_missing naming them)", strings.Join(other, ", "))
	}
	return steps
}

// includeRe is a quoted or angled #include.
var includeRe = regexp.MustCompile(`(?m)^[ \t]*#[ \t]*include[ \t]*["<]([^">\n]+)[">]`)

// includedSubmodule finds a header one of the PR's test files includes
// from a submodule the archive lacks (a test framework of the project's
// own, "../extern/ftest/ftest.h"): the path resolved from the file's
// folder or the root, or one whose first folder is the submodule's name
// and that no file in the tree ends with. Submodules Debian fills
// (standIns) are not asked about.
func includedSubmodule(tree *envgen.Tree, files []string, missing []submodule) (sub, file, inc string) {
	if len(missing) == 0 {
		return "", "", ""
	}
	in := func(p string) string {
		for _, m := range missing {
			if _, filled := standIns[repoName(m.url)]; !filled && (p == m.path || strings.HasPrefix(p, m.path+"/")) {
				return m.path
			}
		}
		return ""
	}
	for _, f := range files {
		for _, m := range includeRe.FindAllStringSubmatch(tree.Text(f), -1) {
			h := m[1]
			for _, p := range []string{path.Join(path.Dir(f), h), path.Clean(h)} {
				if s := in(p); s != "" && !tree.Has(p) {
					return s, f, h
				}
			}
			first, _, ok := strings.Cut(h, "/")
			if !ok {
				continue
			}
			for _, ms := range missing {
				if _, filled := standIns[repoName(ms.url)]; !filled && path.Base(ms.path) == first && !treeHasSuffix(tree, h) {
					return ms.path, f, h
				}
			}
		}
	}
	return "", "", ""
}

// treeHasSuffix says whether a file of the tree is p or ends with /p.
func treeHasSuffix(tree *envgen.Tree, p string) bool {
	for _, f := range tree.Files {
		if f == p || strings.HasSuffix(f, "/"+p) {
			return true
		}
	}
	return false
}
