package cfamily

import (
	_ "embed"
	"path"
	"regexp"
	"slices"
	"strings"

	"curate/pipeline/envgen"
)

//go:embed curate-gtestsrc.sh
var gtestsrcScript string

// An ExternalProject_Add call and the arguments that say where it
// downloads from, where its source goes and which revision it takes.
var (
	externalProjectArgsRe = regexp.MustCompile(`(?is)\bExternalProject_Add\s*\(\s*[A-Za-z0-9_.-]+([^)]*)\)`)
	epFromRe              = regexp.MustCompile(`(?i)\b(URL|GIT_REPOSITORY)\s+"?([^\s"]+)`)
	epSourceDirRe         = regexp.MustCompile(`(?i)\bSOURCE_DIR\s+"?\$\{CMAKE_BINARY_DIR\}/([A-Za-z0-9_.-]+)"?`)
	epTagRe               = regexp.MustCompile(`(?i)\bGIT_TAG\s+"?([A-Za-z0-9_.-]+)"?`)
	shaRe                 = regexp.MustCompile(`^[0-9a-f]{7,40}$`)
)

// gtestDownload serves Debian's GoogleTest to a project that downloads
// GoogleTest from GitHub at configure time the way GoogleTest's own
// README once showed: a CMakeLists.txt.in with an ExternalProject_Add,
// configured and built by execute_process, then add_subdirectory of its
// SOURCE_DIR. Offline the download fails (a logging library's 6 PRs were
// all deps_unreachable). An archive (URL) into ${CMAKE_BINARY_DIR}/X:
// Debian's source is put at BUILD/X before the configure, and the failed
// download leaves it there. A clone (GIT_REPOSITORY): git reads the URL
// as a local repository of Debian's source (curate-gtestsrc), with a
// branch for each GIT_TAG; a commit id cannot be served.
func gtestDownload(p *envgen.Plan, tree *envgen.Tree) {
	var dirs, tags []string
	from := ""
	clone := false
	for _, f := range tree.Files {
		b := path.Base(f)
		if vendored(f) || !(b == "CMakeLists.txt" || strings.HasSuffix(b, ".cmake") || strings.HasSuffix(b, ".in")) {
			continue
		}
		for _, m := range externalProjectArgsRe.FindAllStringSubmatch(stripComments(tree.Text(f), "#"), -1) {
			src := epFromRe.FindStringSubmatch(m[1])
			if src == nil || !strings.Contains(strings.ToLower(src[2]), "github.com/google/googletest") {
				continue
			}
			from = f
			if strings.EqualFold(src[1], "GIT_REPOSITORY") {
				clone = true
				if t := epTagRe.FindStringSubmatch(m[1]); t != nil && !shaRe.MatchString(t[1]) && !slices.Contains(tags, t[1]) {
					tags = append(tags, t[1])
				}
			} else if d := epSourceDirRe.FindStringSubmatch(m[1]); d != nil && !slices.Contains(dirs, d[1]) {
				dirs = append(dirs, d[1])
			}
		}
	}
	if len(dirs) == 0 && !clone {
		return
	}
	if !slices.Contains(p.Packages, "googletest") {
		p.Packages = append(p.Packages, "googletest")
	}
	if len(dirs) > 0 {
		p.Env = append(p.Env, "CURATE_GTEST_DOWNLOAD="+strings.Join(dirs, ":"))
		p.Note("%s downloads GoogleTest from GitHub at configure time, which fails offline: Debian's source (/usr/src/googletest) is put at the build folder's %s first, where the project's add_subdirectory finds it", from, strings.Join(dirs, ", "))
	}
	if clone {
		p.Tools["curate-gtestsrc"] = gtestsrcScript
		p.ToolchainSteps = append(p.ToolchainSteps, strings.TrimSpace("curate-gtestsrc "+envgen.QuoteAll(tags)))
		p.Note("%s clones GoogleTest from GitHub at configure time, which fails offline: git reads GitHub's GoogleTest URLs as a local repository of Debian's source (curate-gtestsrc), with branches main, master and the GIT_TAG it names", from)
	}
}
