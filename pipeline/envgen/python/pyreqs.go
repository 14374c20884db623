package python

import (
	"curate/pipeline/envgen"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// pyReqs collects a Python project's requirements (runtime and test) from
// every common place, with where each group came from.
type pyReqs struct {
	tree    *envgen.Tree
	name    string // the project's normalised name, for self-references
	reqs    []string
	seen    map[string]bool
	sources []string
	extras  []string // test extras the project declares (pip install -e .[x])
	readRq  map[string]bool
}

// testGroups are the extras and dependency groups that hold test
// dependencies.
var testGroups = []string{"test", "tests", "testing", "dev", "develop", "development", "test-deps", "tests-no-zope", "pytest"}

// preferTestGroups: when a project has extras or groups named exactly
// test/tests/testing, its "dev" ones (linters, release tools) are skipped.
func preferTestGroups(names []string) []string {
	exact := false
	for _, n := range names {
		switch pyNormalize(n) {
		case "test", "tests", "testing":
			exact = true
		}
	}
	var out []string
	for _, n := range names {
		if !isTestGroup(n) {
			continue
		}
		if exact && !strings.Contains(pyNormalize(n), "test") {
			continue
		}
		out = append(out, n)
	}
	return out
}

func isTestGroup(name string) bool {
	n := pyNormalize(name)
	for _, g := range testGroups {
		if n == g {
			return true
		}
	}
	return strings.Contains(n, "test")
}

// pyNormalize is PEP 503's name normalisation.
func pyNormalize(s string) string {
	return strings.ToLower(regexp.MustCompile(`[-_.]+`).ReplaceAllString(strings.TrimSpace(s), "-"))
}

var pyReqNameRe = regexp.MustCompile(`^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?`)

// reqName is a requirement's normalised project name ("" if none).
func reqName(req string) string {
	m := pyReqNameRe.FindStringSubmatch(req)
	if m == nil {
		return ""
	}
	return pyNormalize(m[1])
}

func reqExtras(req string) []string {
	m := pyReqNameRe.FindStringSubmatch(req)
	if m == nil || m[2] == "" {
		return nil
	}
	var out []string
	for _, e := range strings.Split(strings.Trim(m[2], "[]"), ",") {
		if e = strings.TrimSpace(e); e != "" {
			out = append(out, e)
		}
	}
	return out
}

func (r *pyReqs) add(source string, reqs ...string) {
	n := 0
	for _, q := range reqs {
		q = strings.TrimSpace(q)
		if q == "" || r.seen[q] {
			continue
		}
		name := reqName(q)
		if name == "" || strings.Contains(q, "://") || strings.HasPrefix(q, "git+") {
			continue // local paths and URLs (forges are not reachable from builds)
		}
		r.seen[q] = true
		if name == r.name && r.name != "" {
			continue // the project itself: installed from the tree, its extras expanded by the caller
		}
		r.reqs = append(r.reqs, q)
		n++
	}
	if n > 0 && !slices.Contains(r.sources, source) {
		r.sources = append(r.sources, source)
	}
}

// collectPyReqs reads pyproject.toml, setup.cfg, setup.py, requirements
// files, tox.ini and noxfile.py.
func collectPyReqs(tree *envgen.Tree) *pyReqs {
	r := &pyReqs{tree: tree, seen: map[string]bool{}, readRq: map[string]bool{}}
	extras := map[string]bool{}
	var pp map[string]any
	if text := tree.Text("pyproject.toml"); text != "" {
		if toml.Unmarshal([]byte(text), &pp) != nil {
			pp = nil
		}
	}
	project := tomlTable(pp, "project")
	if n, ok := project["name"].(string); ok {
		r.name = pyNormalize(n)
	}
	if r.name == "" {
		r.name = pyNormalize(iniValue(tree.Text("setup.cfg"), "metadata", "name"))
	}
	if r.name == "" {
		if m := regexp.MustCompile(`\bname\s*=\s*["']([^"']+)["']`).FindStringSubmatch(tree.Text("setup.py")); m != nil {
			r.name = pyNormalize(m[1])
		}
	}

	// pyproject: runtime deps, test extras (self-references expanded),
	// PEP 735 dependency groups, Poetry/PDM/Hatch dev groups.
	r.add("pyproject.toml [project] dependencies", tomlStrings(project["dependencies"])...)
	optional := tomlTable(project, "optional-dependencies")
	var expand func(extra string, depth int) []string
	expand = func(extra string, depth int) []string {
		var out []string
		for _, q := range tomlStrings(optional[extra]) {
			if reqName(q) == r.name && depth < 5 {
				for _, e := range reqExtras(q) {
					out = append(out, expand(e, depth+1)...)
				}
				continue
			}
			out = append(out, q)
		}
		return out
	}
	for _, k := range preferTestGroups(sortedKeys(optional)) {
		extras[k] = true
		r.add("pyproject.toml optional-dependencies."+k, expand(k, 0)...)
	}
	groups := tomlTable(pp, "dependency-groups")
	var group func(name string, depth int) []string
	group = func(name string, depth int) []string {
		var out []string
		list, _ := groups[name].([]any)
		for _, item := range list {
			switch v := item.(type) {
			case string:
				out = append(out, v)
			case map[string]any:
				if inc, ok := v["include-group"].(string); ok && depth < 5 {
					out = append(out, group(inc, depth+1)...)
				}
			}
		}
		return out
	}
	for _, k := range preferTestGroups(sortedKeys(groups)) {
		r.add("pyproject.toml dependency-groups."+k+" (PEP 735)", group(k, 0)...)
	}
	tool := tomlTable(pp, "tool")
	poetry := tomlTable(tool, "poetry")
	r.add("pyproject.toml tool.poetry.dev-dependencies", poetryNames(tomlTable(poetry, "dev-dependencies"))...)
	for _, k := range sortedKeys(tomlTable(poetry, "group")) {
		if isTestGroup(k) {
			r.add("pyproject.toml tool.poetry.group."+k, poetryNames(tomlTable(tomlTable(tomlTable(poetry, "group"), k), "dependencies"))...)
		}
	}
	if len(project) == 0 {
		r.add("pyproject.toml tool.poetry.dependencies", poetryNames(tomlTable(poetry, "dependencies"))...)
	}
	pdm := tomlTable(tomlTable(tool, "pdm"), "dev-dependencies")
	for _, k := range sortedKeys(pdm) {
		if isTestGroup(k) {
			r.add("pyproject.toml tool.pdm.dev-dependencies."+k, tomlStrings(pdm[k])...)
		}
	}
	hatchEnvs := tomlTable(tomlTable(tool, "hatch"), "envs")
	for _, k := range []string{"default", "test", "tests"} {
		env := tomlTable(hatchEnvs, k)
		r.add("pyproject.toml tool.hatch.envs."+k, tomlStrings(env["dependencies"])...)
		r.add("pyproject.toml tool.hatch.envs."+k, tomlStrings(env["extra-dependencies"])...)
	}

	// setup.cfg and setup.py.
	cfg := tree.Text("setup.cfg")
	r.add("setup.cfg install_requires", splitReqLines(iniValue(cfg, "options", "install_requires"))...)
	for _, k := range preferTestGroups(iniKeys(cfg, "options.extras_require")) {
		extras[k] = true
		r.add("setup.cfg extras_require."+k, splitReqLines(iniValue(cfg, "options.extras_require", k))...)
	}
	r.add("setup.cfg tests_require", splitReqLines(iniValue(cfg, "options", "tests_require"))...)
	setupPy := tree.Text("setup.py")
	var pyExtras []string
	for _, m := range regexp.MustCompile(`["']([A-Za-z0-9_.-]+)["']\s*:\s*\[`).FindAllStringSubmatch(extrasBlock(setupPy), -1) {
		pyExtras = append(pyExtras, m[1])
	}
	block := extrasBlock(setupPy)
	for _, k := range preferTestGroups(pyExtras) {
		extras[k] = true
		// Listed too, so curate-pip installs them as of the revision: the
		// editable install after it takes what is missing at today's
		// versions (a 2019 test runner: its "testing" extra's hypothesis
		// came as 6.141 and warned that pytest 4.5 is too old). Not
		// install_requires: its bounds say what runs (pluggy<1.0), and a
		// dated release may not run on the image's newer Python (the
		// same project: pluggy 0.12's importlib-metadata 0.17 fails on 3.9).
		r.add("setup.py extras_require."+k, pyStringLiterals(setupPyList(block, `["']`+regexp.QuoteMeta(k)+`["']\s*:`))...)
	}
	if m := regexp.MustCompile(`(?s)tests_require\s*=\s*\[(.*?)\]`).FindStringSubmatch(setupPy); m != nil {
		r.add("setup.py tests_require", pyStringLiterals(m[1])...)
	}

	// requirements files: the test ones when there are any, else all but
	// the documentation's.
	var reqFiles, testReqFiles []string
	for _, f := range tree.Files {
		dir, base := path.Split(f)
		low := strings.ToLower(base)
		inReqDir := dir == "requirements/" || dir == "reqs/" || dir == "requirements/dev/"
		if !(dir == "" && strings.Contains(low, "requirements") || inReqDir) || !(strings.HasSuffix(low, ".txt") || inReqDir && strings.HasSuffix(low, ".in")) {
			continue
		}
		if strings.Contains(low, "doc") {
			continue
		}
		if strings.HasSuffix(low, ".in") && tree.Has(strings.TrimSuffix(f, ".in")+".txt") {
			continue // the compiled .txt pins the same set
		}
		reqFiles = append(reqFiles, f)
		if strings.Contains(low, "test") {
			testReqFiles = append(testReqFiles, f)
		}
	}
	use := reqFiles
	if len(testReqFiles) > 0 {
		use = testReqFiles
		if tree.Has("requirements.txt") {
			use = append([]string{"requirements.txt"}, use...)
		}
	}
	for _, f := range use {
		r.add(f, r.requirementsFile(f, 0)...)
	}

	// tox.ini [testenv] deps and noxfile.py session.install(...).
	for _, line := range strings.Split(iniValue(tree.Text("tox.ini"), "testenv", "deps"), "\n") {
		line = strings.TrimSpace(line)
		if i := strings.Index(line, ":"); i > 0 && !strings.ContainsAny(line[:i], "<>=!~ [") {
			line = strings.TrimSpace(line[i+1:]) // factor-conditional: "py38: foo"
		}
		if strings.HasPrefix(line, "-r") {
			f := strings.TrimSpace(strings.TrimPrefix(line, "-r"))
			f = strings.TrimPrefix(strings.ReplaceAll(f, "{toxinidir}", ""), "/")
			r.add("tox.ini deps "+f, r.requirementsFile(path.Clean(f), 0)...)
			continue
		}
		if !strings.Contains(line, "{") {
			r.add("tox.ini [testenv] deps", line)
		}
	}
	for _, m := range regexp.MustCompile(`session\.install\(([^)]*)\)`).FindAllStringSubmatch(tree.Text("noxfile.py"), -1) {
		args := pyStringLiterals(m[1])
		for i := 0; i < len(args); i++ {
			a := args[i]
			switch {
			case a == "-r" && i+1 < len(args):
				r.add("noxfile.py "+args[i+1], r.requirementsFile(path.Clean(args[i+1]), 0)...)
				i++
			case strings.HasPrefix(a, "-") || strings.HasPrefix(a, "."):
			default:
				r.add("noxfile.py session.install", a)
			}
		}
	}
	for e := range extras {
		r.extras = append(r.extras, e)
	}
	sort.Strings(r.extras)
	return r
}

// requirementsFile reads requirement lines, following -r includes in the
// tree and dropping options, editable installs and local paths.
func (r *pyReqs) requirementsFile(f string, depth int) []string {
	if r.readRq[f] || depth > 5 || !r.tree.Has(f) {
		return nil
	}
	r.readRq[f] = true
	var out []string
	for _, line := range strings.Split(r.tree.Text(f), "\n") {
		if i := strings.Index(line, " #"); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(line), "\\"))
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "-r ") || strings.HasPrefix(line, "--requirement "):
			inc := strings.TrimSpace(line[strings.Index(line, " "):])
			out = append(out, r.requirementsFile(path.Join(path.Dir(f), inc), depth+1)...)
		case strings.HasPrefix(line, "-"), strings.HasPrefix(line, "."), strings.HasPrefix(line, "/"):
		default:
			if i := strings.Index(line, " --hash"); i >= 0 {
				line = line[:i]
			}
			out = append(out, line)
		}
	}
	return out
}

func tomlTable(m map[string]any, key string) map[string]any {
	t, _ := m[key].(map[string]any)
	return t
}

func tomlStrings(v any) []string {
	list, _ := v.([]any)
	var out []string
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func sortedKeys(m map[string]any) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// poetryNames turns Poetry's {name = constraint} tables into bare names
// (Poetry's caret constraints are not pip's; the newest release is close
// enough for tests).
func poetryNames(t map[string]any) []string {
	var out []string
	for _, k := range sortedKeys(t) {
		if pyNormalize(k) != "python" {
			out = append(out, k)
		}
	}
	return out
}

// iniValue returns a key's value in an INI section, continuation lines
// included (setup.cfg, tox.ini).
func iniValue(text, section, key string) string {
	in, found := false, false
	var val []string
	for _, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "[") && strings.HasSuffix(trimmed, "]") {
			if found {
				break
			}
			in = strings.TrimSpace(trimmed[1:len(trimmed)-1]) == section
			continue
		}
		if !in {
			continue
		}
		if found {
			if line != "" && (line[0] == ' ' || line[0] == '\t') || trimmed == "" {
				val = append(val, trimmed)
				continue
			}
			break
		}
		if k, v, ok := strings.Cut(line, "="); ok && strings.TrimSpace(k) == key && line[0] != ' ' && line[0] != '\t' {
			found = true
			val = append(val, strings.TrimSpace(v))
		}
	}
	return strings.TrimSpace(strings.Join(val, "\n"))
}

// iniKeys lists a section's keys.
func iniKeys(text, section string) []string {
	in := false
	var keys []string
	for _, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "[") && strings.HasSuffix(trimmed, "]") {
			in = strings.TrimSpace(trimmed[1:len(trimmed)-1]) == section
			continue
		}
		if in && line != "" && line[0] != ' ' && line[0] != '\t' && !strings.HasPrefix(trimmed, "#") {
			if k, _, ok := strings.Cut(line, "="); ok {
				keys = append(keys, strings.TrimSpace(k))
			}
		}
	}
	return keys
}

func splitReqLines(v string) []string {
	var out []string
	for _, l := range strings.Split(v, "\n") {
		if i := strings.Index(l, "#"); i >= 0 {
			l = l[:i]
		}
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// extrasBlock is the text of setup.py's extras_require argument or dict;
// when the argument names a variable (extras_require=EXTRAS_REQUIRE, as
// attrs had it), the text from that variable's dict.
func extrasBlock(setupPy string) string {
	i := strings.Index(setupPy, "extras_require")
	if i < 0 {
		return ""
	}
	if m := extrasVarRe.FindStringSubmatch(setupPy[i:]); m != nil {
		if d := regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(m[1]) + `\s*=\s*\{`).FindStringIndex(setupPy); d != nil {
			i = d[0]
		}
	}
	end := i + 2000
	if end > len(setupPy) {
		end = len(setupPy)
	}
	return setupPy[i:end]
}

// setupPyList is the text inside the list literal that follows the
// pattern in setup.py (`"testing": [...]`, `install_requires=[...]`), or
// inside the list a variable it names holds (install_requires=NAME with
// NAME = [...] above); "" when neither.
func setupPyList(text, pattern string) string {
	loc := regexp.MustCompile(pattern + `\s*`).FindStringIndex(text)
	if loc == nil {
		return ""
	}
	rest := text[loc[1]:]
	if m := regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)\s*[,)\n]`).FindStringSubmatch(rest); m != nil {
		d := regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(m[1]) + `\s*=\s*`).FindStringIndex(text)
		if d == nil {
			return ""
		}
		rest = text[d[1]:]
	}
	if !strings.HasPrefix(rest, "[") {
		return ""
	}
	var quote byte
	for i := 1; i < len(rest); i++ {
		switch c := rest[i]; {
		case quote != 0 && c == '\\':
			i++
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '#':
			for i < len(rest) && rest[i] != '\n' {
				i++ // a comment's "don't" opens no string
			}
		case c == ']':
			return rest[1:i] // a "]" inside a string ("x[extra]") is not the end
		}
	}
	return ""
}

// extrasVarRe is extras_require=NAME, a variable rather than a literal.
var extrasVarRe = regexp.MustCompile(`^extras_require\s*=\s*([A-Za-z_][A-Za-z0-9_]*)\s*[,)\n]`)

var pyStringRe = regexp.MustCompile(`"([^"\\]*)"|'([^'\\]*)'`)

func pyStringLiterals(s string) []string {
	var out []string
	for _, m := range pyStringRe.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1]+m[2])
	}
	return out
}
