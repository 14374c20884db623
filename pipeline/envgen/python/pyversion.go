package python

import (
	"curate/pipeline/envgen"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// DebianPython is the interpreter Debian 12 ships (python3).
const DebianPython = "3.11.2"

// debianPythonReleased is when Python 3.11 came out: a revision committed
// before it was never run on 3.11 by its authors, and its pinned test
// tools often do not run there (pytest 6 fails to import on 3.11).
var debianPythonReleased = time.Date(2022, 10, 24, 0, 0, 0, 0, time.UTC)

// requiresPython reads the project's requires-python (pyproject.toml,
// setup.cfg, setup.py) and where it came from.
func requiresPython(tree *envgen.Tree, pp map[string]any) (spec, from string) {
	if s, ok := tomlTable(pp, "project")["requires-python"].(string); ok && s != "" {
		return s, "pyproject.toml requires-python"
	}
	if s := iniValue(tree.Text("setup.cfg"), "options", "python_requires"); s != "" {
		return s, "setup.cfg python_requires"
	}
	if m := regexp.MustCompile(`python_requires\s*=\s*["']([^"']+)["']`).FindStringSubmatch(tree.Text("setup.py")); m != nil {
		return m[1], "setup.py python_requires"
	}
	return "", ""
}

var pySpecRe = regexp.MustCompile(`^\s*(~=|===|==|!=|<=|>=|<|>)\s*([0-9][0-9a-zA-Z.*+!-]*)\s*$`)

// pySatisfies reports whether version meets a PEP 440 specifier set
// ("">=3.8,<4"); a clause it cannot read is ignored (pip decides then).
func pySatisfies(version, spec string) bool {
	for _, clause := range strings.Split(spec, ",") {
		if strings.TrimSpace(clause) == "" {
			continue
		}
		m := pySpecRe.FindStringSubmatch(clause)
		if m == nil {
			continue
		}
		op, want := m[1], m[2]
		if strings.HasSuffix(want, ".*") {
			prefix := pyVersionParts(strings.TrimSuffix(want, ".*"))
			have := pyVersionParts(version)
			match := len(have) >= len(prefix)
			for i := 0; match && i < len(prefix); i++ {
				match = have[i] == prefix[i]
			}
			if (op == "==" && !match) || (op == "!=" && match) {
				return false
			}
			continue
		}
		c := pyCompare(version, want)
		ok := true
		switch op {
		case "==", "===":
			ok = c == 0
		case "!=":
			ok = c != 0
		case "<":
			ok = c < 0
		case "<=":
			ok = c <= 0
		case ">":
			ok = c > 0
		case ">=":
			ok = c >= 0
		case "~=":
			parts := pyVersionParts(want)
			upper := append([]int{}, parts[:max(1, len(parts)-1)]...)
			upper[len(upper)-1]++
			ok = c >= 0 && pyCompareParts(pyVersionParts(version), upper) < 0
		}
		if !ok {
			return false
		}
	}
	return true
}

var leadingDigits = regexp.MustCompile(`^\d+`)

// pyVersionParts is a release's numbers ("3.11.2" → 3 11 2); a
// pre-release suffix ends it ("3.12rc1" → 3 12).
func pyVersionParts(v string) []int {
	var out []int
	for _, p := range strings.Split(v, ".") {
		digits := leadingDigits.FindString(p)
		if digits == "" {
			break
		}
		n, _ := strconv.Atoi(digits)
		out = append(out, n)
		if len(digits) < len(p) {
			break
		}
	}
	return out
}

func pyCompare(a, b string) int { return pyCompareParts(pyVersionParts(a), pyVersionParts(b)) }

func pyCompareParts(a, b []int) int {
	for i := 0; i < len(a) || i < len(b); i++ {
		x, y := 0, 0
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

// OlderPython is the one interpreter older than DebianPython that curate
// can install with only the package registries reachable: Debian 11's
// python3.9, from the same Debian archive (suite bullseye, pinned low so
// nothing else is taken from it). Debian 11 cuts distutils out of the
// interpreter (pip needs it before 3.10): python3-distutils and
// python3-lib2to3 of Debian 11 are unpacked beside it (their package names
// clash with Debian 12's, their files do not). pip comes from PyPI through
// virtualenv, which makes a venv for any interpreter. Older ones (3.7,
// 3.8) are in no suite the archive still serves; newer ones (3.12, 3.13 in
// Debian 13) need Debian 13's C library.
const OlderPython = "3.9.2"

// olderPythonSuite is the Debian suite OlderPython comes from.
const olderPythonSuite = "bullseye"

var pyClassifierRe = regexp.MustCompile(`Programming Language :: Python :: 3\.(\d+)\b`)

// pyClassifiersMax is the newest Python 3 minor the project's trove
// classifiers name (pyproject.toml, setup.cfg, setup.py), 0 when none.
func pyClassifiersMax(tree *envgen.Tree) int {
	top := 0
	for _, f := range []string{"pyproject.toml", "setup.cfg", "setup.py"} {
		for _, m := range pyClassifierRe.FindAllStringSubmatch(tree.Text(f), -1) {
			if n, err := strconv.Atoi(m[1]); err == nil && n > top {
				top = n
			}
		}
	}
	return top
}

// pyInterpreter decides the interpreter of a revision: Debian 12's unless
// requires-python excludes it, or the classifiers name nothing newer than
// 3.9 (a revision from before 3.10 removed the old collections aliases),
// or the revision is older than Python 3.11, and Debian 11's 3.9 fits. ok
// is false when neither fits.
func pyInterpreter(tree *envgen.Tree, spec, from string) (version, why string, ok bool) {
	if spec != "" && !pySatisfies(DebianPython, spec) {
		if pySatisfies(OlderPython, spec) {
			return OlderPython, fmt.Sprintf("%s %q excludes %s (Debian 12) and allows %s", from, spec, DebianPython, OlderPython), true
		}
		return "", "", false
	}
	if top := pyClassifiersMax(tree); top > 0 && top < 10 && (spec == "" || pySatisfies(OlderPython, spec)) {
		return OlderPython, fmt.Sprintf("the classifiers name Python 3.%d at newest, a revision older than 3.10", top), true
	}
	if !tree.Date.IsZero() && tree.Date.Before(debianPythonReleased) && (spec == "" || pySatisfies(OlderPython, spec)) {
		return OlderPython, fmt.Sprintf("the revision (%s) is older than Python 3.11 (%s)", tree.Date.Format("2006-01-02"), debianPythonReleased.Format("2006-01-02")), true
	}
	return DebianPython, "", true
}

// olderPythonSteps install OlderPython and a venv of it in /opt/venv;
// dev adds its headers (C extensions).
func olderPythonSteps(why string, dev bool) []string {
	pkgs := "python3.9"
	if dev {
		pkgs += " python3.9-dev"
	}
	mismatch := envgen.FailStep("toolchain_mismatch", "wanted Python %s (%s), present %s (Debian 12): Debian 11's python3.9 could not be installed from the Debian archive (suite %s)", OlderPython, why, DebianPython, olderPythonSuite)
	apt := `mirror=$(sed -n -E 's#^deb (\[[^]]*\] )?(https?://[^ ]+) bookworm( |$).*#\2#p' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | head -n1); ` +
		`echo "deb ${mirror:-http://deb.debian.org/debian} ` + olderPythonSuite + ` main" > /etc/apt/sources.list.d/curate-` + olderPythonSuite + `.list; ` +
		`printf 'Package: *\nPin: release n=` + olderPythonSuite + `\nPin-Priority: 100\n' > /etc/apt/preferences.d/curate-` + olderPythonSuite + `; ` +
		`apt-get update -qq || { ` + envgen.FailStep("deps_unreachable", "the Debian archive did not answer for suite %s (Python %s)", olderPythonSuite, OlderPython) + `; }; ` +
		`DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ` + pkgs + ` && ` +
		`cd /tmp && apt-get download -qq python3-distutils/` + olderPythonSuite + ` python3-lib2to3/` + olderPythonSuite + ` && ` +
		`for d in python3-distutils_*.deb python3-lib2to3_*.deb; do dpkg-deb -x "$d" / || exit 1; done && rm -f /tmp/*.deb && rm -rf /var/lib/apt/lists/* && ` +
		`python3.9 -c 'import distutils.cmd, ssl, sqlite3' || { ` + mismatch + `; }`
	venv := `python3 -m venv /opt/curate-virtualenv && ` +
		envgen.RegistryStep("the package index (${PIP_INDEX_URL:-https://pypi.org/simple})", pyMissingSed, "/opt/curate-virtualenv/bin/python -m pip install -q virtualenv") +
		` && /opt/curate-virtualenv/bin/virtualenv -q -p python3.9 /opt/venv && rm -rf /opt/curate-virtualenv`
	return []string{apt, venv}
}
