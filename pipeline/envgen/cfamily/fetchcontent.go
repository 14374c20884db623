package cfamily

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"curate/pipeline/envgen"
)

// A CMake project that downloads a dependency at configure time
// (FetchContent_Declare ... GIT_REPOSITORY or URL) cannot configure in a
// build whose network reaches only the package registries: GitHub is not
// one. Where Debian has the dependency, its package stands in, found by
// the declared name or by the URL's repository. FetchContent is told to
// try find_package first (FETCHCONTENT_TRY_FIND_PACKAGE_MODE=ALWAYS);
// a dependency Debian ships as sources (GoogleTest) is given as the
// declared name's source folder, and one declared under another name than
// its package's (json for nlohmann_json) gets a folder whose CMakeLists
// finds the package under its own name.

// fetchedDep is a dependency Debian packages: the package, and either the
// name find_package knows it by or the folder its sources are in.
type fetchedDep struct {
	pkg, config, sources string
}

// fetchedDeps are keyed by declared name and by upstream repository
// (owner/name, lower case): a table of what Debian 12 ships, not a rule
// per project.
var fetchedDeps = map[string]fetchedDep{
	"googletest":               {pkg: "googletest", sources: "/usr/src/googletest"},
	"gtest":                    {pkg: "googletest", sources: "/usr/src/googletest"},
	"google/googletest":        {pkg: "googletest", sources: "/usr/src/googletest"},
	"catch2":                   {pkg: "catch2", config: "Catch2"},
	"catchorg/catch2":          {pkg: "catch2", config: "Catch2"},
	"doctest":                  {pkg: "doctest-dev", config: "doctest"},
	"doctest/doctest":          {pkg: "doctest-dev", config: "doctest"},
	"onqtam/doctest":           {pkg: "doctest-dev", config: "doctest"},
	"fmt":                      {pkg: "libfmt-dev", config: "fmt"},
	"fmtlib/fmt":               {pkg: "libfmt-dev", config: "fmt"},
	"spdlog":                   {pkg: "libspdlog-dev", config: "spdlog"},
	"gabime/spdlog":            {pkg: "libspdlog-dev", config: "spdlog"},
	"nlohmann_json":            {pkg: "nlohmann-json3-dev", config: "nlohmann_json"},
	"nlohmann/json":            {pkg: "nlohmann-json3-dev", config: "nlohmann_json"},
	"benchmark":                {pkg: "libbenchmark-dev", config: "benchmark"},
	"google/benchmark":         {pkg: "libbenchmark-dev", config: "benchmark"},
	"cxxopts":                  {pkg: "libcxxopts-dev", config: "cxxopts"},
	"jarro2783/cxxopts":        {pkg: "libcxxopts-dev", config: "cxxopts"},
	"cli11":                    {pkg: "libcli11-dev", config: "CLI11"},
	"cliutils/cli11":           {pkg: "libcli11-dev", config: "CLI11"},
	"pybind11":                 {pkg: "pybind11-dev", config: "pybind11"},
	"pybind/pybind11":          {pkg: "pybind11-dev", config: "pybind11"},
	"range-v3":                 {pkg: "librange-v3-dev", config: "range-v3"},
	"ericniebler/range-v3":     {pkg: "librange-v3-dev", config: "range-v3"},
	"tl-expected":              {pkg: "libtl-expected-dev", config: "tl-expected"},
	"tartanllama/expected":     {pkg: "libtl-expected-dev", config: "tl-expected"},
	"microsoft.gsl":            {pkg: "libmsgsl-dev", config: "Microsoft.GSL"},
	"microsoft/gsl":            {pkg: "libmsgsl-dev", config: "Microsoft.GSL"},
	"eigen":                    {pkg: "libeigen3-dev", config: "Eigen3"},
	"eigen3":                   {pkg: "libeigen3-dev", config: "Eigen3"},
	"libeigen/eigen":           {pkg: "libeigen3-dev", config: "Eigen3"},
	"abseil-cpp":               {pkg: "libabsl-dev", config: "absl"},
	"absl":                     {pkg: "libabsl-dev", config: "absl"},
	"abseil/abseil-cpp":        {pkg: "libabsl-dev", config: "absl"},
	"zlib":                     {pkg: "zlib1g-dev", config: "ZLIB"},
	"madler/zlib":              {pkg: "zlib1g-dev", config: "ZLIB"},
	"date":                     {pkg: "libhowardhinnant-date-dev", config: "date"},
	"howardhinnant/date":       {pkg: "libhowardhinnant-date-dev", config: "date"},
	"utf8cpp":                  {pkg: "libutfcpp-dev", config: "utf8cpp"},
	"nemtrif/utfcpp":           {pkg: "libutfcpp-dev", config: "utf8cpp"},
	"tomlplusplus":             {pkg: "libtomlplusplus-dev", config: "tomlplusplus"},
	"marzer/tomlplusplus":      {pkg: "libtomlplusplus-dev", config: "tomlplusplus"},
	"google/flatbuffers":       {pkg: "libflatbuffers-dev", config: "FlatBuffers"},
	"flatbuffers":              {pkg: "libflatbuffers-dev", config: "FlatBuffers"},
	"protocolbuffers/protobuf": {pkg: "libprotobuf-dev", config: "Protobuf"},
}

// ShimDir holds the folders that find a package under its own name for a
// dependency declared under another.
const ShimDir = "/usr/local/share/curate-fetchcontent"

var (
	fetchDeclareRe = regexp.MustCompile(`(?is)\bFetchContent_Declare\s*\(\s*([A-Za-z0-9_.+-]+)([^)]*)\)`)
	fetchURLRe     = regexp.MustCompile(`(?i)\b(?:GIT_REPOSITORY|URL)\s+"?([^\s")]+)`)
	// repoURLRe is the owner/name of a forge URL: a clone URL or an
	// archive or release download under it.
	repoURLRe = regexp.MustCompile(`(?i)^(?:https?|git|ssh)://(?:[^@/]+@)?(?:www\.)?(?:github\.com|gitlab\.com|bitbucket\.org)[/:]([^/\s]+)/([^/\s#?]+)`)
)

// fetchContent makes the FetchContent downloads Debian has offline: the
// packages, the configure arguments, the shim folders' steps, and a note
// naming each choice.
func fetchContent(p *envgen.Plan, tree *envgen.Tree, pkgs, args *[]string) {
	var chosen []string
	seen := map[string]bool{}
	for _, f := range tree.Files {
		if path.Base(f) != "CMakeLists.txt" && !strings.HasSuffix(f, ".cmake") {
			continue
		}
		for _, m := range fetchDeclareRe.FindAllStringSubmatch(tree.Text(f), -1) {
			name := m[1]
			if seen[strings.ToLower(name)] {
				continue
			}
			dep, via, ok := lookupFetched(name, m[2])
			if !ok {
				continue
			}
			seen[strings.ToLower(name)] = true
			*pkgs = append(*pkgs, dep.pkg)
			dirArg := "-DFETCHCONTENT_SOURCE_DIR_" + strings.ToUpper(name) + "="
			switch {
			case dep.sources != "":
				*args = append(*args, dirArg+dep.sources)
				chosen = append(chosen, fmt.Sprintf("%s (%s: Debian's %s, its sources in %s)", name, via, dep.pkg, dep.sources))
			case name == dep.config: // find_package is case-sensitive: Catch2Config.cmake is not catch2's
				chosen = append(chosen, fmt.Sprintf("%s (%s: Debian's %s)", name, via, dep.pkg))
			default:
				shim := ShimDir + "/" + strings.ToLower(name)
				p.ToolchainSteps = append(p.ToolchainSteps, fmt.Sprintf("mkdir -p %s && echo 'find_package(%s REQUIRED GLOBAL)' > %s/CMakeLists.txt", shim, dep.config, shim))
				*args = append(*args, dirArg+shim)
				chosen = append(chosen, fmt.Sprintf("%s (%s: Debian's %s, found as %s)", name, via, dep.pkg, dep.config))
			}
		}
	}
	if len(chosen) > 0 {
		*args = append(*args, "-DFETCHCONTENT_TRY_FIND_PACKAGE_MODE=ALWAYS")
		p.Note("FetchContent of %s: Debian's packages stand in for the downloads (FETCHCONTENT_TRY_FIND_PACKAGE_MODE=ALWAYS), so the build needs no network", strings.Join(chosen, "; "))
	}
}

// lookupFetched finds a declared dependency in the table: by its name,
// else by the owner/name of its URL. via says which.
func lookupFetched(name, body string) (fetchedDep, string, bool) {
	if d, ok := fetchedDeps[strings.ToLower(name)]; ok {
		return d, "by name", true
	}
	u := fetchURLRe.FindStringSubmatch(body)
	if u == nil {
		return fetchedDep{}, "", false
	}
	r := repoURLRe.FindStringSubmatch(u[1])
	if r == nil {
		return fetchedDep{}, "", false
	}
	repo := strings.ToLower(r[1] + "/" + strings.TrimSuffix(r[2], ".git"))
	d, ok := fetchedDeps[repo]
	return d, "from " + repo, ok
}
