package cfamily

import (
	"path"
	"regexp"
	"strings"

	"curate/pipeline/envgen"
)

// findPathRe is a find_path() call of a CMake find module: its variable,
// then the rest of its arguments.
var findPathRe = regexp.MustCompile(`(?i)\bfind_path\s*\(\s*[A-Za-z0-9_]+\s+([^)]*)\)`)

// findPathKeywords end the NAMES list of find_path.
var findPathKeywords = map[string]bool{"HINTS": true, "PATHS": true, "PATH_SUFFIXES": true, "DOC": true, "NO_DEFAULT_PATH": true,
	"REQUIRED": true, "NO_CACHE": true, "ENV": true, "NO_CMAKE_PATH": true, "NO_SYSTEM_ENVIRONMENT_PATH": true, "NO_CMAKE_FIND_ROOT_PATH": true}

// findModuleHeaders are the headers the project's own find modules look
// for, for each required find_package a module of the tree answers
// (cmake/FindX.cmake): such a module finds a library by its header and
// file name, not by a package config or .pc file the Contents index could
// be asked for, and falls back to downloading the library when they are
// missing, which fails offline (a compiler cache's FindXxhash looks for
// xxhash.h, which Debian's libxxhash-dev has).
func findModuleHeaders(tree *envgen.Tree, needs []Need) []Need {
	modules := map[string]string{}
	for _, f := range tree.Files {
		if b := path.Base(f); strings.HasPrefix(b, "Find") && strings.HasSuffix(b, ".cmake") && !vendored(f) {
			modules[strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(b, "Find"), ".cmake"))] = f
		}
	}
	var out []Need
	seen := map[string]bool{}
	for _, n := range needs {
		f, ok := modules[strings.ToLower(n.Name)]
		if n.Kind != "cmake" || !n.Required || !ok {
			continue
		}
		for _, m := range findPathRe.FindAllStringSubmatch(stripComments(tree.Text(f), "#"), -1) {
			h := firstFindPathName(strings.Fields(m[1]))
			if h != "" && !seen[h] {
				seen[h] = true
				out = append(out, Need{Kind: "header", Name: h, From: f, Required: true})
			}
		}
	}
	return out
}

// firstFindPathName is the first file name of find_path's arguments after
// its variable: "xxhash.h" of "xxhash.h" and of "NAMES xxhash.h HINTS ...";
// "" when it is a variable or not a header.
func firstFindPathName(args []string) string {
	if len(args) > 1 && strings.EqualFold(args[0], "NAMES") {
		args = args[1:]
	}
	if len(args) == 0 || findPathKeywords[strings.ToUpper(args[0])] {
		return ""
	}
	h := strings.Trim(args[0], `"`)
	if strings.ContainsAny(h, "${}*") || strings.Contains(h, "..") || !headerNameRe.MatchString(h) {
		return ""
	}
	return h
}

// headerNameRe is a header path as a find module names it.
var headerNameRe = regexp.MustCompile(`^[A-Za-z0-9_+-][A-Za-z0-9_+./-]*\.(?:h|hh|hpp|hxx|H)$`)
