package cfamily

import (
	_ "embed"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"

	"curate/pipeline/envgen"
	"curate/pipeline/envgen/ciconfig"
)

// cdepsCSV maps what a project asks for to Debian packages (kind, name,
// package); see the file's header.
//
//go:embed cdeps.csv
var cdepsCSV string

// debTable is cdeps.csv read: "kind:name" (name lower-case) → package
// ("" = provided by libc or the compiler).
var debTable = mustTable("cdeps.csv", cdepsCSV)

func mustTable(name, text string) map[string]string {
	t, err := parseTable(name, text)
	if err != nil {
		panic(err) // embedded data: the package test reads it too
	}
	return t
}

// parseTable reads kind,name,package rows; comments (#) and the header
// row are skipped. A bad row is an error naming file and line.
func parseTable(name, text string) (map[string]string, error) {
	out := map[string]string{}
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") || line == "kind,name,package" {
			continue
		}
		f := strings.Split(line, ",")
		if len(f) != 3 || f[1] == "" || (f[0] != "cmake" && f[0] != "pkg" && f[0] != "lib" && f[0] != "prog" && f[0] != "boost" && f[0] != "m4") ||
			f[0] == "m4" && !m4NameRe.MatchString(f[1]) {
			return nil, fmt.Errorf("%s:%d: want kind,name,package with kind cmake, pkg, lib, prog, boost or m4 (an Autoconf macro's name): %q", name, i+1, line)
		}
		out[f[0]+":"+strings.ToLower(f[1])] = f[2]
	}
	return out, nil
}

// Need is one thing the project asks the system for.
type Need struct {
	Kind, Name string // cmake, pkg, lib, prog, apt, boost, m4; the name as written
	From       string // file that asks
	Required   bool
}

var (
	findPackageRe = regexp.MustCompile(`(?i)\bfind_package\s*\(\s*([A-Za-z0-9_.+-]+)([^)]*)\)`)
	pkgCheckRe    = regexp.MustCompile(`(?i)\bpkg_(?:check|search)_modules?\s*\(\s*[A-Za-z0-9_]+([^)]*)\)`)
	mesonDepRe    = regexp.MustCompile(`\bdependency\s*\(\s*'([^']+)'([^)]*)\)`)
	m4NameRe      = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	acPkgRe       = regexp.MustCompile(`PKG_CHECK_MODULES\s*\(\s*\[?[A-Za-z0-9_]+\]?\s*,\s*\[?([^\],)]+)`)
	acLibRe       = regexp.MustCompile(`AC_CHECK_LIB\s*\(\s*\[?([A-Za-z0-9_+.-]+)\]?`)
	acSearchRe    = regexp.MustCompile(`AC_SEARCH_LIBS\s*\(\s*\[?[A-Za-z0-9_]+\]?\s*,\s*\[?([^\],)]+)`)
	makeLibRe     = regexp.MustCompile(`(?:^|[\s=])-l([A-Za-z0-9_+][A-Za-z0-9_+.-]*)`)
	makePkgRe     = regexp.MustCompile(`pkg-config\s+(?:--[a-z-]+(?:=\S+)?\s+)*([A-Za-z0-9_+][A-Za-z0-9_+.-]*)`)
	aptRe         = regexp.MustCompile(`\bapt(?:-get)?\s+(?:-\S+\s+)*install\b([^\n&|;]*)`)
	pkgWordRe     = regexp.MustCompile(`^[a-z0-9][a-z0-9.+-]+$`)
	// localeRe is a named locale (de_DE.utf8, en_US.UTF-8). A suite run
	// under one (a Meson test's env: LC_ALL=..., a CI's locale-gen) fails
	// before any code of the PR runs when the image lacks it.
	localeRe = regexp.MustCompile(`\b[a-z]{2,3}_[A-Z]{2}\.(?:utf-?8|UTF-?8)\b`)
	// m4Re is an Autoconf macro of cdeps.csv's m4 rows.
	m4Re = regexp.MustCompile(`\b(` + strings.Join(tableNames("m4", strings.ToUpper), "|") + `)\b`)
	// progRe is a program of cdeps.csv's prog rows, as a word of a build
	// file (set(RE2C re2c), add_test(t python x.py), configure.ac's
	// AC_CHECK_PROG([HAVE_AUTOGEN], [autogen], ...)).
	progRe = regexp.MustCompile(`(?:^|[\s("'=:\[])(` + strings.Join(tableNames("prog", regexp.QuoteMeta), "|") + `)(?:$|[\s)"';,\]])`)
	// m32Re is a 32-bit build flag in a build file: its tests compile
	// only with Debian's multilib headers and libraries (a serialization
	// library's portability tests: "bits/c++config.h: No such file").
	m32Re = regexp.MustCompile(`(?:^|[\s"'(])-m32(?:$|[\s"')])`)
	// runtimeAptRe are the CI's apt packages that are not -dev but that
	// tests read at run time: locale and time-zone data.
	runtimeAptRe = regexp.MustCompile(`^(?:locales|locales-all|tzdata)$`)
)

// self says whether a need names the project itself (its own CMake
// package or pkg-config module, found by its tools or examples).
func self(tree *envgen.Tree, name string) bool {
	_, repo, _ := strings.Cut(tree.Repo, "/")
	norm := func(s string) string {
		return strings.NewReplacer("-", "", "_", "", ".", "").Replace(strings.ToLower(s))
	}
	return repo != "" && (norm(name) == norm(repo) || "lib"+norm(name) == norm(repo) || norm(name) == "lib"+norm(repo))
}

// Needs reads what the project asks the system for: CMake find_package
// and pkg_check_modules, Meson dependency(), configure's PKG_CHECK_MODULES
// and AC_CHECK_LIB, a Makefile's -l flags and pkg-config calls, and the
// -dev packages its CI installs with apt; the programs a build file runs
// (cdeps.csv's prog rows); locales-all when the build files or CI name a
// locale (LC_ALL=de_DE.utf8); g++-multilib when a build file compiles
// with -m32.
func Needs(tree *envgen.Tree) []Need {
	var out []Need
	seen := map[string]int{}
	add := func(n Need) {
		if strings.ContainsAny(n.Name, "${}") || self(tree, n.Name) {
			return
		}
		k := n.Kind + ":" + strings.ToLower(n.Name)
		if i, ok := seen[k]; ok {
			// find_package(X QUIET), then find_package(X REQUIRED) in
			// the branch where the first found nothing: X is required.
			out[i].Required = out[i].Required || n.Required
			return
		}
		seen[k] = len(out)
		out = append(out, n)
	}
	for _, f := range tree.Files {
		base := path.Base(f)
		text := ""
		switch {
		case base == "CMakeLists.txt" || strings.HasSuffix(base, ".cmake"):
			if vendored(f) {
				continue
			}
			text = stripComments(tree.Text(f), "#")
			for _, m := range findPackageRe.FindAllStringSubmatch(text, -1) {
				if !strings.HasPrefix(m[1], "${") {
					req := strings.Contains(strings.ToUpper(m[2]), "REQUIRED")
					add(Need{Kind: "cmake", Name: m[1], From: f, Required: req})
					if strings.EqualFold(m[1], "boost") {
						for _, c := range boostComponents(m[2]) {
							add(Need{Kind: "boost", Name: c, From: f, Required: req})
						}
					}
				}
			}
			for _, m := range pkgCheckRe.FindAllStringSubmatch(text, -1) {
				req := strings.Contains(m[1], "REQUIRED")
				for _, w := range strings.Fields(m[1]) {
					if mod := moduleName(w); mod != "" && mod != "REQUIRED" && mod != "QUIET" && mod != "IMPORTED_TARGET" && mod != "GLOBAL" && mod != "NO_CMAKE_PATH" && mod != "NO_CMAKE_ENVIRONMENT_PATH" {
						add(Need{Kind: "pkg", Name: mod, From: f, Required: req})
					}
				}
			}
		case base == "meson.build":
			if vendored(f) {
				continue
			}
			text = stripComments(tree.Text(f), "#")
			for _, m := range mesonDepRe.FindAllStringSubmatch(text, -1) {
				add(Need{Kind: "pkg", Name: m[1], From: f, Required: !strings.Contains(m[2], "required : false") && !strings.Contains(m[2], "required: false")})
			}
		case f == "configure.ac" || f == "configure.in":
			text = stripComments(tree.Text(f), "dnl")
			for _, m := range acPkgRe.FindAllStringSubmatch(text, -1) {
				for _, w := range strings.Fields(m[1]) {
					if mod := moduleName(w); mod != "" {
						add(Need{Kind: "pkg", Name: mod, From: f, Required: true})
					}
				}
			}
			for _, m := range acLibRe.FindAllStringSubmatch(text, -1) {
				add(Need{Kind: "lib", Name: m[1], From: f})
			}
			// autoreconf runs (autopoint) or needs (.m4 files) what the
			// macros come from; a tree with no configure script stopped at
			// "Can't exec autopoint" without them.
			for _, m := range m4Re.FindAllStringSubmatch(text, -1) {
				add(Need{Kind: "m4", Name: m[1], From: f})
			}
			for _, m := range acSearchRe.FindAllStringSubmatch(text, -1) {
				for _, w := range strings.Fields(m[1]) {
					add(Need{Kind: "lib", Name: w, From: f})
				}
			}
		case base == "Makefile" || base == "makefile" || base == "GNUmakefile" || strings.HasSuffix(base, ".mk"):
			// A plain Makefile names its libraries as linker flags
			// (-lssl -lcrypto: an HTTP library's test/Makefile, whose test
			// did not compile without OpenSSL's headers) or asks pkg-config.
			if vendored(f) {
				continue
			}
			text = stripComments(tree.Text(f), "#")
			for _, m := range makeLibRe.FindAllStringSubmatch(text, -1) {
				add(Need{Kind: "lib", Name: m[1], From: f})
			}
			for _, m := range makePkgRe.FindAllStringSubmatch(text, -1) {
				add(Need{Kind: "pkg", Name: m[1], From: f})
			}
		case strings.HasPrefix(f, ".github/workflows/") && (strings.HasSuffix(f, ".yml") || strings.HasSuffix(f, ".yaml")):
			text = tree.Text(f)
			for _, m := range aptRe.FindAllStringSubmatch(text, -1) {
				for _, w := range strings.Fields(m[1]) {
					// Only -dev packages and test data: CI lines also install
					// compilers by Ubuntu version names Debian does not have.
					if pkgWordRe.MatchString(w) && (strings.HasSuffix(w, "-dev") || runtimeAptRe.MatchString(w)) {
						add(Need{Kind: "apt", Name: w, From: f})
					}
				}
			}
		}
		if text != "" && !strings.HasPrefix(f, ".github/") {
			for _, m := range progRe.FindAllStringSubmatch(text, -1) {
				add(Need{Kind: "prog", Name: m[1], From: f, Required: true})
			}
		}
		if text != "" && localeRe.MatchString(text) {
			add(Need{Kind: "apt", Name: "locales-all", From: f})
		}
		if text != "" && !strings.HasPrefix(f, ".github/") && m32Re.MatchString(text) {
			add(Need{Kind: "apt", Name: "g++-multilib", From: f})
		}
	}
	// The CI job curate reads, at its matrix entry: a package list in a
	// matrix variable (apt-get install ${{ matrix.packages }}) is only
	// there.
	for _, s := range ciconfig.Read(tree).Packages {
		if pkgWordRe.MatchString(s.Value) && (strings.HasSuffix(s.Value, "-dev") || runtimeAptRe.MatchString(s.Value)) {
			file, _, _ := strings.Cut(s.Source, " ")
			add(Need{Kind: "apt", Name: s.Value, From: file})
		}
	}
	return out
}

// moduleName is a pkg-config module out of "name>=1.2" (a version word
// alone is "").
func moduleName(w string) string {
	w = strings.Trim(w, `"'[]`)
	if i := strings.IndexAny(w, "<>="); i >= 0 {
		w = w[:i]
	}
	if w == "" || strings.HasPrefix(w, "$") || (w[0] >= '0' && w[0] <= '9') {
		return ""
	}
	return w
}

// vendored says whether a build file belongs to bundled third-party code,
// whose needs are the bundle's own (and often optional).
func vendored(f string) bool {
	parts := strings.Split(f, "/")
	for _, part := range parts[:len(parts)-1] {
		switch p := strings.ToLower(part); {
		case p == "third_party" || p == "thirdparty" || p == "3rdparty" || p == "external" || p == "extern" || p == "vendor" || p == "deps":
			return true
		case p == "googletest" || p == "gtest" || p == "gmock" || releaseDirRe.MatchString(p):
			return true
		}
	}
	return false
}

// releaseDirRe is a folder named like an unpacked release (googletest-1.16.0).
var releaseDirRe = regexp.MustCompile(`^[a-z][a-z0-9_+]*-v?\d+(\.\d+)+$`)

func stripComments(text, marker string) string {
	var b strings.Builder
	for _, line := range strings.Split(text, "\n") {
		if i := strings.Index(line, marker); i >= 0 {
			line = line[:i]
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String()
}

// CIPackages are the -dev packages the CI installs with apt that pkgs
// does not already hold, as apt:NAME words for curate-cdeps. They are not
// certain: a CI may take them from another distribution or from a vendor's
// repository (a newer compiler's runtime), so curate-cdeps installs the
// ones Debian has and names the others instead of failing the image.
func CIPackages(needs []Need, pkgs []string) []string {
	var out []string
	for _, n := range needs {
		if n.Kind == "apt" && !contains(pkgs, n.Name) && !contains(out, "apt:"+n.Name) {
			out = append(out, "apt:"+n.Name)
		}
	}
	return out
}

// aptSources names each apt:NAME word of ci with the file that asks for
// it ("locales-all (tests/meson.build)"), so a note says why.
func aptSources(needs []Need, ci []string) []string {
	var out []string
	for _, w := range ci {
		name := strings.TrimPrefix(w, "apt:")
		for _, n := range needs {
			if n.Kind == "apt" && n.Name == name {
				name += " (" + n.From + ")"
				break
			}
		}
		out = append(out, name)
	}
	return out
}

// DebianPackages maps needs to Debian packages; unknown lists the needs
// the table has no entry for ("cmake:Foo (CMakeLists.txt, required)").
func DebianPackages(needs []Need) (pkgs, unknown []string) {
	set := map[string]bool{}
	for _, n := range needs {
		if n.Kind == "apt" {
			continue // CIPackages: installed when Debian has them
		}
		p, ok := debTable[n.Kind+":"+strings.ToLower(n.Name)]
		if n.Kind == "boost" {
			p, ok = boostPackage(n.Name)
		}
		switch {
		case !ok && n.Kind == "lib":
			// AC_CHECK_LIB probes optional libraries as often as needed ones.
			continue
		case !ok:
			req := ""
			if n.Required {
				req = ", required"
			}
			unknown = append(unknown, fmt.Sprintf("%s:%s (%s%s)", n.Kind, n.Name, n.From, req))
		case p != "":
			for _, q := range strings.Fields(p) {
				set[q] = true
			}
		}
	}
	for p := range set {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	return pkgs, unknown
}

// tableNames are the names of cdeps.csv's rows of one kind, each
// through f, sorted. m4 names come out in capitals (as configure.ac calls
// the macros), prog names quoted for a regexp.
func tableNames(kind string, f func(string) string) []string {
	var out []string
	for k := range debTable {
		if name, ok := strings.CutPrefix(k, kind+":"); ok {
			out = append(out, f(name))
		}
	}
	sort.Strings(out)
	return out
}
