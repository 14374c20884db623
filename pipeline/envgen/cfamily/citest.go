package cfamily

import (
	"regexp"
	"strings"

	_ "embed"

	"curate/pipeline/envgen"
	"curate/pipeline/envgen/ciconfig"
)

//go:embed curate-citest.sh
var citestScript string

//go:embed curate-testlines.py
var testlinesScript string

var (
	// ciTestSafeRe is a test command simple enough to stand in the
	// Dockerfile's ENV line and run as written: words, paths and flags,
	// no quotes, variables or command separators.
	ciTestSafeRe = regexp.MustCompile(`^[A-Za-z0-9_./ =+:,@-]+$`)
	// buildRunnerRe is a command the build system's own test step already
	// runs (ctest, make check, meson test): not a script of the project's.
	buildRunnerRe = regexp.MustCompile(`^(?:sudo\s+)?(?:ctest|make|gmake|ninja|meson|cmake)\b`)
	// proveRe is Perl's test runner and its arguments.
	proveRe = regexp.MustCompile(`^prove((?:\s+\S+)*)$`)
)

// proveTests is the folder or script of the tree a prove command runs
// ("prove -I. -r t/"; t/ when it names none), "" when it is no prove
// command or runs nothing of the tree.
func proveTests(cmd string, tree *envgen.Tree) string {
	m := proveRe.FindStringSubmatch(cmd)
	if m == nil {
		return ""
	}
	var targets []string
	words := strings.Fields(m[1])
	for i, w := range words {
		if !strings.HasPrefix(w, "-") && (i == 0 || words[i-1] != "-I") {
			targets = append(targets, strings.Trim(strings.TrimPrefix(w, "./"), "/"))
		}
	}
	if len(targets) == 0 {
		targets = []string{"t"}
	}
	for _, f := range targets {
		if tree.Has(f) || len(tree.Glob(f+"/*")) > 0 || len(tree.Glob(f+"/*/*")) > 0 {
			return f
		}
	}
	return ""
}

// ciTestScript is the CI's test command that runs a script kept in the
// repository ("python3 ./scripts/run-tests.py"), "" when it has none.
// curate-cbuild runs it as one test when the build defines no test of
// its own: a Markdown parser's tests are spec files that script checks
// against the built program, CMake declares none, and all six of its
// PRs were nop_not_run.
func ciTestScript(p *envgen.Plan, tree *envgen.Tree) string {
	for _, t := range ciconfig.Read(tree).Tests {
		cmd := strings.TrimSpace(t.Value)
		if !ciTestSafeRe.MatchString(cmd) || buildRunnerRe.MatchString(cmd) {
			continue
		}
		if dir := proveTests(cmd, tree); dir != "" {
			// Perl's prove runs the scripts under a folder (t/), each
			// printing TAP; Debian's perl has it.
			p.Packages = append(p.Packages, "perl")
			p.Note("the CI's test command %q (%s) runs the project's test scripts under %s with prove (perl from Debian): when the build defines no test, each script's TAP cases are tests, the script itself one more (failed when prove's summary names it), and the command one test too", cmd, t.Source, dir)
			return cmd
		}
		for _, w := range strings.Fields(cmd) {
			if f := strings.TrimPrefix(w, "./"); !strings.HasPrefix(f, "-") && tree.Has(f) {
				p.Note("the CI's test command %q (%s) runs the project's script %s: when the build defines no test, it is one test, run from the build folder with links to the source tree's top-level entries (the CI runs it after an in-tree build)", cmd, t.Source, f)
				return cmd
			}
		}
	}
	return ""
}
