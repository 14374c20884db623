package python

import (
	"curate/pipeline/envgen"
	"path"
	"strings"
)

// pytestPythonFiles are the globs of the project's pytest python_files
// setting (pytest.ini, pyproject.toml, tox.ini, setup.cfg, the first that
// sets it), nil when none does: a test runner's own suite names its
// modules testing/*/*.py, and pytest given such a folder alone collects
// every module under it.
func pytestPythonFiles(tree *envgen.Tree, pp map[string]any) []string {
	if v, ok := tomlTable(tomlTable(tomlTable(pp, "tool"), "pytest"), "ini_options")["python_files"]; ok {
		if s, ok := v.(string); ok {
			return strings.Fields(s)
		}
		return tomlStrings(v)
	}
	for _, c := range []struct{ file, section string }{{"pytest.ini", "pytest"}, {"tox.ini", "pytest"}, {"setup.cfg", "tool:pytest"}} {
		if v := iniValue(tree.Text(c.file), c.section, "python_files"); v != "" {
			return strings.Fields(v)
		}
	}
	return nil
}

// matchesPythonFiles reports whether pytest collects f under globs: a
// glob without a slash matches the base name, one with slashes the end of
// the path (pytest's fnmatch_ex).
func matchesPythonFiles(globs []string, f string) bool {
	parts := strings.Split(f, "/")
	for _, g := range globs {
		n := strings.Count(g, "/") + 1
		if n > len(parts) {
			continue
		}
		if ok, _ := path.Match(g, strings.Join(parts[len(parts)-n:], "/")); ok {
			return true
		}
	}
	return false
}
