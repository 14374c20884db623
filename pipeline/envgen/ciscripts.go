package envgen

import (
	"fmt"
	"path"
	"strings"
)

// ciConfigFiles are the CI configurations whose scripts a PR may keep
// under its test folder.
var ciConfigFiles = []string{".github/workflows/*", ".gitlab-ci.yml", ".travis.yml", "appveyor.yml", ".appveyor.yml",
	"azure-pipelines.yml", ".circleci/config.yml", ".cirrus.yml", ".drone.yml"}

// ciScriptExts are the extensions of scripts a CI step runs.
var ciScriptExts = map[string]bool{".ps1": true, ".bat": true, ".cmd": true, ".sh": true, ".bash": true, ".yml": true, ".yaml": true}

// onlyCIScripts is the refusal for a PR whose every changed test file is
// a script a CI configuration names (a PowerShell build script under
// tests/ that appveyor.yml runs): it has no test that could fail before
// the fix, so building it only makes a no_fail_to_pass task. "" when any
// changed test file is something else.
func onlyCIScripts(tree *Tree, changed []string) string {
	if len(changed) == 0 {
		return ""
	}
	var ci []string
	for _, g := range ciConfigFiles {
		ci = append(ci, tree.Glob(g)...)
	}
	var named []string
	for _, f := range changed {
		base := path.Base(f)
		if !ciScriptExts[strings.ToLower(path.Ext(base))] {
			return ""
		}
		by := ""
		for _, c := range ci {
			// By base name: Windows steps write the path with backslashes.
			if strings.Contains(tree.Text(c), base) {
				by = c
				break
			}
		}
		if by == "" {
			return ""
		}
		named = append(named, fmt.Sprintf("%s (run by %s)", f, by))
	}
	return "the PR's only test changes are scripts its CI runs, not tests: " + strings.Join(FirstOf(named, 3), ", ")
}
