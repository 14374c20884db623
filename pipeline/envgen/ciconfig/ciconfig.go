// Package ciconfig reads what a repository's CI configuration says about
// its environment: the toolchain versions its setup steps install, the
// Debian packages it adds, the services it starts and the test command it
// runs. Languages read it after the project's own build-tool declarations
// and before their defaults, and record each choice with its source.
package ciconfig

import (
	"sort"
	"strings"

	"curate/pipeline/envgen"
)

// Setting is one thing the CI says, with where it says it
// (".github/workflows/ci.yml job test setup-node").
type Setting struct {
	Value  string `json:"value"`
	Source string `json:"source"`
}

// Config is what the repository's CI declares, from the job chosen in each
// file (the one that runs on Linux, with the most common matrix entry).
type Config struct {
	// Versions are toolchain versions by tool: java, node, python, go,
	// rust; the first CI file that sets one wins.
	Versions map[string]Setting
	Packages []Setting // Debian packages installed (apt-get install)
	Services []Setting // service containers (image names)
	Tests    []Setting // the commands the test job runs
	// Defines are the cache settings its cmake commands pass
	// ("CMAKE_CXX_STANDARD=20"), first file first.
	Defines []Setting
	// Targets are the targets its cmake --build commands name
	// ("--target testit"): tests that need more than the default build.
	Targets []Setting
}

// Tools the setup steps name.
const (
	Java   = "java"
	Node   = "node"
	Python = "python"
	Go     = "go"
	Rust   = "rust"
)

// maxFile caps what is parsed of one CI file: configuration files are
// small, and a larger one is not a CI file a person wrote.
const maxFile = 256 << 10

// Read reads the tree's CI files: GitHub Actions workflows first, then
// GitLab CI, Travis, tox and nox. A file that does not parse is skipped.
func Read(tree *envgen.Tree) *Config {
	c := &Config{Versions: map[string]Setting{}}
	var workflows []string
	for _, f := range tree.Files {
		if strings.HasPrefix(f, ".github/workflows/") && (strings.HasSuffix(f, ".yml") || strings.HasSuffix(f, ".yaml")) {
			workflows = append(workflows, f)
		}
	}
	sort.SliceStable(workflows, func(i, j int) bool { return workflowRank(workflows[i]) < workflowRank(workflows[j]) })
	for _, f := range workflows {
		if text := read(tree, f); text != "" {
			c.add(readWorkflow(f, text))
		}
	}
	if text := read(tree, ".gitlab-ci.yml"); text != "" {
		c.add(readGitLab(".gitlab-ci.yml", text))
	}
	if text := read(tree, ".travis.yml"); text != "" {
		c.add(readTravis(".travis.yml", text))
	}
	if text := read(tree, "tox.ini"); text != "" {
		c.add(readTox("tox.ini", text))
	}
	if text := read(tree, "noxfile.py"); text != "" {
		c.add(readNox("noxfile.py", text))
	}
	return c
}

// Version is the version the CI sets up for tool, and its source; ok is
// false when no CI file names one.
func (c *Config) Version(tool string) (version, source string, ok bool) {
	if c == nil {
		return "", "", false
	}
	s, ok := c.Versions[tool]
	return s.Value, s.Source, ok
}

// workflowRank orders workflows so a CI or test workflow is read before
// release, docs or lint ones.
func workflowRank(f string) int {
	base := strings.ToLower(f[strings.LastIndex(f, "/")+1:])
	for i, w := range []string{"test", "ci", "build", "main", "check"} {
		if strings.Contains(base, w) {
			return i
		}
	}
	for _, w := range []string{"release", "publish", "deploy", "doc", "lint", "codeql", "scorecard", "fuzz", "bench"} {
		if strings.Contains(base, w) {
			return 20
		}
	}
	return 10
}

func read(tree *envgen.Tree, f string) string {
	if !tree.Has(f) {
		return ""
	}
	b, err := tree.Read(f)
	if err != nil || len(b) > maxFile {
		return ""
	}
	return string(b)
}

// add merges what one file says: versions only where none is known yet.
func (c *Config) add(f fileConfig) {
	for _, tool := range sortedKeys(f.versions) {
		if _, ok := c.Versions[tool]; !ok && f.versions[tool].Value != "" {
			c.Versions[tool] = f.versions[tool]
		}
	}
	c.Packages = appendNew(c.Packages, f.packages)
	c.Services = appendNew(c.Services, f.services)
	c.Defines = appendNew(c.Defines, f.defines)
	c.Targets = appendNew(c.Targets, f.targets)
	if len(c.Tests) == 0 {
		c.Tests = f.tests
	}
}

// fileConfig is what one CI file says.
type fileConfig struct {
	versions map[string]Setting
	packages []Setting
	services []Setting
	tests    []Setting
	defines  []Setting
	targets  []Setting
}

func appendNew(to, from []Setting) []Setting {
	for _, s := range from {
		dup := false
		for _, t := range to {
			dup = dup || t.Value == s.Value
		}
		if !dup {
			to = append(to, s)
		}
	}
	return to
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
