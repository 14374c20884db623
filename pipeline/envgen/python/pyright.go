package python

import (
	"curate/pipeline/envgen"
	"regexp"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// pyrightCache is where the PyPI pyright wrapper keeps the npm pyright
// package it downloads (PYRIGHT_PYTHON_CACHE_DIR): a fixed path in the
// image, whoever runs the tests and whatever HOME is then.
const pyrightCache = "/opt/pyright"

// pyrightCallRe finds tests that run the pyright command (a subprocess
// argument, shutil.which("pyright")).
const pyrightCallRe = `["']pyright["']`

// pyright makes the pyright type checker work offline in the image when
// the project's test requirements name it or the PR's tests run it. The
// PyPI package is a wrapper: at first use it runs node (from PATH, else it
// downloads node with nodeenv from a site builds cannot reach) on the npm
// package pyright of its own version (bundled in recent wheels, else
// npm-installed into its cache). Validation has no network, so node comes
// in with the toolchain and a first `pyright --version` at build time
// fills the caches (the wrapper's, npm's), read offline from then on.
// Tests written against one pyright's messages expect that one, so the
// wrapper is the newest release uploaded before the revision was
// committed (pip --uploaded-prior-to), the same whenever the image is
// built. It returns the requirements without pyright (installed by its
// own step).
func pyright(p *envgen.Plan, tree *envgen.Tree, tests envgen.Tests, reqs []string) []string {
	spec, declared := "", false
	var rest []string
	for _, q := range reqs {
		if reqName(q) == "pyright" {
			spec, declared = q, true
			continue
		}
		rest = append(rest, q)
	}
	var callers []string
	for _, f := range tree.Grep(pyrightCallRe, ".py") {
		if slices.Contains(tests.Files, f) {
			callers = append(callers, f)
		}
	}
	if !declared && len(callers) == 0 {
		return reqs
	}
	why := "the test requirements name pyright"
	if !declared {
		why = strings.Join(callers, ", ") + " run pyright"
		spec = "pyright"
		if s, from := pyrightDeclared(tree); s != "" {
			spec = s
			why += "; " + from + " asks for " + s
		}
	}
	p.ToolchainSteps = append(p.ToolchainSteps, envgen.NodeStep(p, envgen.NodeMajors[0]))
	// Wrappers before 1.1.296 run `npx pyright@VERSION`, which asks the
	// registry first and, offline, falls back to its cache only after
	// minutes of retries: prefer-offline reads the cache filled at build
	// time without asking (and fetches what is missing, at build time).
	p.Env = append(p.Env, "PYRIGHT_PYTHON_CACHE_DIR="+pyrightCache, "PYRIGHT_PYTHON_IGNORE_WARNINGS=1",
		"NPM_CONFIG_CACHE="+pyrightCache+"/npm", "NPM_CONFIG_PREFER_OFFLINE=true", "NPM_CONFIG_UPDATE_NOTIFIER=false")
	install := "python -m pip install -q " + envgen.ShellQuote(spec)
	version := "the newest release"
	if !tree.Date.IsZero() {
		date := tree.Date.UTC().Format("2006-01-02T15:04:05Z")
		version = "the newest release uploaded before " + date + " (the revision's commit date)"
		// An older pip lacks the option: then the newest, said so.
		install = "python -m pip install -q --uploaded-prior-to " + date + " " + envgen.ShellQuote(spec) + " || { echo 'curate: note: pyright by date failed; the newest release instead'; " +
			envgen.RegistryStep("the package index (${PIP_INDEX_URL:-https://pypi.org/simple})", pyMissingSed, install) + "; }"
	} else {
		install = envgen.RegistryStep("the package index (${PIP_INDEX_URL:-https://pypi.org/simple})", pyMissingSed, install)
	}
	p.DepSteps = append(p.DepSteps, install,
		envgen.RegistryStep(envgen.NPMRegistry, envgen.NPMMissing, "pyright --version"))
	p.Note("pyright (%s): node %d from the npm registry, %s %s, and `pyright --version` at build time puts its npm package in %s, read offline (validation has no network)",
		why, envgen.NodeMajors[0], envgen.ShellQuote(spec), version, pyrightCache)
	return rest
}

// pyrightDeclared finds a pyright requirement the project declares outside
// its test requirements (a tox env or a dependency group of its own, an
// extra), for the version constraint: "" when none.
func pyrightDeclared(tree *envgen.Tree) (spec, from string) {
	var pp map[string]any
	if text := tree.Text("pyproject.toml"); text != "" && toml.Unmarshal([]byte(text), &pp) == nil {
		optional := tomlTable(tomlTable(pp, "project"), "optional-dependencies")
		groups := tomlTable(pp, "dependency-groups")
		for _, t := range []struct {
			m    map[string]any
			name string
		}{{groups, "pyproject.toml dependency-groups."}, {optional, "pyproject.toml optional-dependencies."}} {
			for _, k := range sortedKeys(t.m) {
				for _, q := range tomlStrings(t.m[k]) {
					if reqName(q) == "pyright" {
						return strings.TrimSpace(q), t.name + k
					}
				}
			}
		}
	}
	section, key := "", ""
	for _, raw := range strings.Split(tree.Text("tox.ini"), "\n") {
		line := strings.TrimSpace(raw)
		switch {
		case strings.HasPrefix(line, "["):
			section, key = line, ""
			continue
		case raw != "" && raw[0] != ' ' && raw[0] != '\t':
			k, v, _ := strings.Cut(line, "=")
			key, line = strings.TrimSpace(k), strings.TrimSpace(v)
		}
		if key != "deps" {
			continue
		}
		if i := strings.Index(line, ":"); i > 0 && !strings.ContainsAny(line[:i], "<>=!~ [") {
			line = strings.TrimSpace(line[i+1:]) // factor-conditional: "py38: foo"
		}
		if i := strings.Index(line, "#"); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		if pyrightSpecRe.MatchString(line) {
			return line, "tox.ini " + section
		}
	}
	return "", ""
}

// pyrightSpecRe is a plain requirement line (no tox substitutions, no
// command).
var pyrightSpecRe = regexp.MustCompile(`^pyright(\[[A-Za-z0-9_,-]+\])?\s*([<>=!~]=?\s*[0-9][0-9A-Za-z.*]*\s*,?\s*)*$`)
