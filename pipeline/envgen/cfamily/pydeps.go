package cfamily

import (
	_ "embed"
	"fmt"
	"path"
	"strings"

	"curate/pipeline/envgen"
)

// pydepsScript installs, after the configure step, the Debian packages of
// the Python modules the tests' scripts import.
//
//go:embed curate-pydeps.py
var pydepsScript string

// pydepsStep is the image step that runs curate-pydeps, for a CMake or
// Meson project with a Python script in a test folder (a calendar
// library's GLib tests `import gi`, which a CI machine has and Debian's
// python3 does not): the test commands are known only once configured.
// "" when there is none.
func pydepsStep(p *envgen.Plan, tree *envgen.Tree, sys string) string {
	if sys != "cmake" && sys != "meson" {
		return ""
	}
	for _, f := range tree.Files {
		if path.Ext(f) == ".py" && strings.Contains(strings.ToLower(path.Dir(f)), "test") {
			p.Tools["curate-pydeps"] = pydepsScript
			p.Tools["curate-cdeps"] = cdepsScript
			p.Note("the tests' Python scripts (%s, ...) may import modules Debian's python3 lacks: after configuring, curate-pydeps reads the test commands and installs those modules' python3- packages (Contents index)", f)
			return fmt.Sprintf("curate-pydeps %s %s", sys, BuildDir)
		}
	}
	return ""
}
