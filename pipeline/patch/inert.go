package patch

import (
	"path"
	"strings"
)

// Inert says whether a PR's change to p can be left out when the PR is
// mirrored onto a snapshot: documentation, CI, lint and tox/nox
// configuration, and the dependency manifests and lockfiles. None of them changes what the
// tests see at the snapshot: the environment there is built from the
// snapshot's own manifests, so reversing a version bump in go.mod or
// package.json would only break the shared environment. Mirror leaves
// them out only when reversing the whole fix conflicts.
func Inert(p string) bool {
	base := path.Base(p)
	lower := strings.ToLower(base)
	for _, dir := range []string{".github/", ".circleci/", ".gitlab/", ".changeset/", "changelog.d/"} {
		if strings.HasPrefix(p, dir) {
			return true
		}
	}
	switch path.Ext(lower) {
	case ".md", ".markdown", ".rst", ".adoc":
		return true
	}
	switch ext := path.Ext(lower); ext {
	case "", ".txt", ".in": // CHANGELOG, CHANGES.txt, AUTHORS, LICENSE, MANIFEST.in
		for _, prefix := range []string{"changelog", "changes", "history", "news", "authors", "contributors", "license", "copying", "manifest"} {
			if strings.HasPrefix(lower, prefix) {
				return true
			}
		}
	}
	switch lower {
	case ".golangci.yml", ".golangci.yaml", ".travis.yml", ".gitignore", ".gitattributes", ".editorconfig",
		".pre-commit-config.yaml", "tox.ini", "noxfile.py", ".coveragerc", ".flake8", "mypy.ini", ".pylintrc", "ruff.toml", ".ruff.toml", "renovate.json", ".renovaterc", "dependabot.yml", ".eslintrc", ".eslintrc.json", ".eslintrc.js", ".prettierrc", ".npmignore",
		"appveyor.yml", "codecov.yml", ".codecov.yml", "readthedocs.yml", ".readthedocs.yml", ".readthedocs.yaml",
		"go.mod", "go.sum", "go.work", "go.work.sum",
		"package.json", "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml",
		"cargo.toml", "cargo.lock", "pom.xml", "build.gradle", "build.gradle.kts",
		"pyproject.toml", "setup.cfg", "setup.py", "requirements.txt", "poetry.lock", "uv.lock", "pdm.lock", "pipfile", "pipfile.lock":
		return true
	}
	return false
}

// splitInert splits files into those that matter to the tests and the
// inert ones (see Inert).
func splitInert(files []string) (code, inert []string) {
	for _, f := range files {
		if Inert(f) {
			inert = append(inert, f)
		} else {
			code = append(code, f)
		}
	}
	return code, inert
}
