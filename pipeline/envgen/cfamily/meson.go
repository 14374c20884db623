package cfamily

import (
	"path"
	"regexp"
	"strings"

	"curate/pipeline/envgen"
)

// mesonOptionRe is one option() of meson.options (meson_options.txt
// before Meson 1.1) that is a boolean or a feature.
var mesonOptionRe = regexp.MustCompile(`(?s)\boption\s*\(\s*'([A-Za-z0-9_-]+)'\s*,\s*type\s*:\s*'(boolean|feature)'`)

// mesonCMakeRe finds a Meson build that calls CMake (its cmake module, or
// the program): Meson fails to configure without it ("Program 'cmake'
// not found").
var mesonCMakeRe = regexp.MustCompile(`import\s*\(\s*'cmake'|find_program\s*\(\s*'cmake'`)

// mesonArgs plans a Meson build's configure: the options that turn tests
// on, by the rules CMake switches follow (turnsTestsOn), set on (a test
// suite behind build_tests=false defined no test: "No tests defined."),
// and cmake installed when a meson.build calls it.
func mesonArgs(p *envgen.Plan, tree *envgen.Tree, dir string, args *[]string) {
	text := tree.Text(join(dir, "meson.options"))
	if text == "" {
		text = tree.Text(join(dir, "meson_options.txt"))
	}
	var on []string
	for _, m := range mesonOptionRe.FindAllStringSubmatch(stripComments(text, "#"), -1) {
		u := strings.ToUpper(strings.ReplaceAll(m[1], "-", "_"))
		if !turnsTestsOn(u) || !plainTestSwitch(u, "") {
			continue
		}
		v := "true"
		if m[2] == "feature" {
			v = "enabled"
		}
		if a := "-D" + m[1] + "=" + v; !contains(*args, a) {
			*args = append(*args, a)
			on = append(on, a)
		}
	}
	if len(on) > 0 {
		p.Note("Meson options that turn the tests on: %s", strings.Join(on, " "))
	}
	for _, f := range tree.Files {
		if path.Base(f) != "meson.build" || vendored(f) {
			continue
		}
		text := stripComments(tree.Text(f), "#")
		why := ""
		switch {
		case mesonCMakeRe.MatchString(text):
			why = f + " calls it"
		case mesonLooksUpPackages(text):
			// Meson's dependency() asks pkg-config, then CMake, as on a
			// CI runner that has both: Debian's doctest-dev ships only a
			// CMake config, and without cmake Meson downloaded doctest's
			// wrap instead (deps_unreachable on all six PRs of a hash map
			// library).
			why = f + " looks packages up with dependency(), which asks CMake when pkg-config has no .pc file"
		}
		if why != "" {
			if !contains(p.Packages, "cmake") {
				p.Packages = append(p.Packages, "cmake")
			}
			p.Note("cmake installed: %s", why)
			break
		}
	}
}

// mesonLooksUpPackages says whether a meson.build calls dependency() for
// a package (threads is Meson's own).
func mesonLooksUpPackages(text string) bool {
	for _, m := range mesonDepRe.FindAllStringSubmatch(text, -1) {
		if m[1] != "threads" {
			return true
		}
	}
	return false
}
