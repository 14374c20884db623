package cfamily

import (
	"regexp"
	"strconv"
	"strings"

	"curate/pipeline/envgen"
	"curate/pipeline/envgen/ciconfig"
)

var (
	// rakeCommandRe is a CI test command that runs rake, from a folder or
	// not: "cd test && rake ci", "bundle exec rake test:unit". Bundler is
	// dropped: the gems come from Debian, not a Gemfile.
	rakeCommandRe = regexp.MustCompile(`^(?:cd\s+([A-Za-z0-9_./-]+)\s*&&\s*)?(?:(?:sudo\s+)?bundle\s+exec\s+)?rake((?:\s+[A-Za-z0-9_:.=-]+)*)\s*$`)
	// gemInstallRe is a "gem install" command and its arguments.
	gemInstallRe = regexp.MustCompile(`\bgem\s+install\s+([^;&|\n]*)`)
	gemNameRe    = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)
)

// rakefileNames are the names rake looks for in the folder it runs in.
var rakefileNames = []string{"Rakefile", "rakefile", "Rakefile.rb", "rakefile.rb"}

// rakeHarness makes the CI's rake command the test command when the
// project's CI runs its C tests through rake in a folder holding a
// Rakefile: ruby and rake from Debian, the gems the CI installs as
// Debian's ruby-* packages (curate-cdeps gem:), and curate-citest reading
// per-test results from the framework's lines. A C test framework's own
// suite is driven this way (its CI: "cd test && rake ci"), and CMake
// declares no test: all its PRs were nop_not_run. It says whether it
// found one.
func rakeHarness(p *envgen.Plan, tree *envgen.Tree) bool {
	for _, t := range ciconfig.Read(tree).Tests {
		for _, line := range strings.Split(t.Value, "\n") {
			line = strings.TrimSpace(line)
			m := rakeCommandRe.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			dir := strings.Trim(strings.TrimPrefix(m[1], "./"), "/")
			rakefile := ""
			for _, n := range rakefileNames {
				if tree.Has(join(dir, n)) {
					rakefile = join(dir, n)
					break
				}
			}
			if rakefile == "" {
				continue
			}
			cmd := strings.Join(append([]string{"rake"}, strings.Fields(m[2])...), " ")
			p.Env = append(p.Env, "CURATE_CI_TEST="+cmd)
			// The harness replaces the build system's own tests: a
			// Makefile beside the rakefile (test/Makefile, its "test"
			// target) is not what the CI runs.
			p.Env = append(p.Env, "CURATE_CI_TEST_DIR="+join("/app", dir), "CURATE_CI_HARNESS=rake")
			p.Tools["curate-citest"] = citestScript
			p.Packages = append(p.Packages, "ruby", "rake")
			p.Note("tests: the CI runs them through rake (%q, %s): %q in %s/ (%s) is the test command, in place of the build system's tests; ruby and rake from Debian; per-test results from its output and the result files it writes (Unity's file:line:name:PASS/FAIL/IGNORE lines, TAP's ok/not ok), and the command itself is one test", line, ciLine(tree, t.Source, line), cmd, orRoot(dir), rakefile)
			if gems := ciGems(tree); len(gems) > 0 {
				var needs []string
				for _, g := range gems {
					needs = append(needs, "gem:"+g)
				}
				p.Tools["curate-cdeps"] = cdepsScript
				p.ToolchainSteps = append(p.ToolchainSteps, "curate-cdeps "+envgen.QuoteAll(needs))
				p.Note("gems the CI installs (gem install): %s; from Debian (ruby-NAME, or NAME where that is a Ruby program), as no gem registry answers here; one Debian lacks is left out with a note in the build log", strings.Join(gems, " "))
			}
			return true
		}
	}
	return false
}

// ciGems are the gems the CI's gem install commands name (versions and
// flags left out: Debian has one version).
func ciGems(tree *envgen.Tree) []string {
	var out []string
	for _, m := range gemInstallRe.FindAllStringSubmatch(ciText(tree), -1) {
		skip := false
		for _, w := range strings.Fields(m[1]) {
			switch {
			case skip:
				skip = false
			case w == "-v" || w == "--version" || w == "-i" || w == "--install-dir":
				skip = true
			case strings.HasPrefix(w, "-"):
			case gemNameRe.MatchString(w) && !contains(out, w):
				out = append(out, w)
			}
		}
	}
	return out
}

// ciLine is FILE:LINE of a command in the CI file its source names, or
// the source as it is when the line is not found.
func ciLine(tree *envgen.Tree, source, command string) string {
	file, _, _ := strings.Cut(source, " ")
	for i, l := range strings.Split(tree.Text(file), "\n") {
		if strings.Contains(l, command) {
			return file + ":" + strconv.Itoa(i+1)
		}
	}
	return source
}

func orRoot(dir string) string {
	if dir == "" {
		return "."
	}
	return dir
}
