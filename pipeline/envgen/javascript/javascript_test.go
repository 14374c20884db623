package javascript

import (
	"curate/pipeline/envgen"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func planJS(t *testing.T, files map[string]string, tests ...string) *envgen.Plan {
	t.Helper()
	p, err := envgen.LanguageFor("javascript").Plan(envgen.MapTree("o/r", files), envgen.Tests{Files: tests})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestJavaScriptNodeVersion(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"engines >=22", map[string]string{"package.json": `{"engines":{"node":">=22"},"devDependencies":{"vitest":"^4"}}`}, "22"},
		{"engines old and open", map[string]string{"package.json": `{"engines":{"node":">= 0.6"},"devDependencies":{"mocha":"10"}}`}, "22"},
		{"engines caret 18 only", map[string]string{"package.json": `{"engines":{"node":"^18.18.0"},"devDependencies":{"mocha":"10"}}`}, "18"},
		{"nvmrc wins over engines", map[string]string{".nvmrc": "v20.11.1\n", "package.json": `{"engines":{"node":">=18"},"devDependencies":{"ava":"5"}}`}, "20"},
		{"nvmrc lts alias", map[string]string{".nvmrc": "lts/hydrogen", "package.json": `{"devDependencies":{"ava":"5"}}`}, "18"},
		{"no hint", map[string]string{"package.json": `{"devDependencies":{"jest":"29"}}`}, "22"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := planJS(t, c.files, "test/a.test.js")
			if p.Toolchain.Version != c.want {
				t.Errorf("node %s, want %s (notes %q)", p.Toolchain.Version, c.want, p.Notes)
			}
			if !strings.Contains(strings.Join(p.ToolchainSteps, "\n"), "curate-node "+c.want+" ") {
				t.Errorf("does not fetch node %s from the registry", c.want)
			}
		})
	}
}

func TestJavaScriptPackageManager(t *testing.T) {
	pkg := `{"devDependencies":{"mocha":"10"}}`
	cases := []struct {
		lock map[string]string
		want string
	}{
		{map[string]string{"package-lock.json": "{}"}, "curate-npm-install ci "},
		{map[string]string{"npm-shrinkwrap.json": "{}"}, "curate-npm-install ci "},
		{map[string]string{"yarn.lock": ""}, "npm install -g --no-audit --no-fund yarn@1 && (yarn install --frozen-lockfile"},
		{map[string]string{"yarn.lock": "", ".yarnrc.yml": "yarnPath: .yarn/releases/yarn-4.1.0.cjs\n", ".yarn/releases/yarn-4.1.0.cjs": ""}, "node '.yarn/releases/yarn-4.1.0.cjs' install --immutable"},
		{map[string]string{"pnpm-lock.yaml": "lockfileVersion: '6.0'\n"}, "npm install -g --no-audit --no-fund pnpm@8 "},
		{map[string]string{"pnpm-lock.yaml": "lockfileVersion: '9.0'\n", "package.json": `{"packageManager":"pnpm@9.4.0+sha256.abc","devDependencies":{"mocha":"10"}}`}, "npm install -g --no-audit --no-fund pnpm@9.4.0 "},
		{map[string]string{}, "curate-npm-install install (no lockfile: npm install with today's versions)"},
	}
	for _, c := range cases {
		files := map[string]string{"package.json": pkg}
		for k, v := range c.lock {
			files[k] = v
		}
		p := planJS(t, files, "test/a.js")
		// The notes carry the command as the install step runs it (the
		// step quotes it for curate-deps).
		if got := strings.Join(p.Notes, "\n"); !strings.Contains(got, "dependencies: "+c.want) {
			t.Errorf("%v: notes %q, want the install %q", c.lock, got, c.want)
		}
		if len(p.DepSteps) != 1 || !strings.HasPrefix(p.DepSteps[0], "curate-step ") || len(p.Install) != 0 {
			t.Errorf("%v: dependency steps %q (install %q): want one from the manifests, through curate-step", c.lock, p.DepSteps, p.Install)
		}
		for f := range c.lock {
			if !strings.Contains(strings.Join(p.Manifests, " "), f) {
				t.Errorf("%v: manifests %v lack %s", c.lock, p.Manifests, f)
			}
		}
	}
}

func TestJavaScriptWorkspaceInstallsWithTheTree(t *testing.T) {
	for _, pkg := range []string{`{"workspaces":["packages/*"],"devDependencies":{"jest":"1"}}`, `{"devDependencies":{"jest":"1","helper":"file:./helper"}}`} {
		p := planJS(t, map[string]string{"package.json": pkg, "package-lock.json": "{}"}, "a.test.js")
		if len(p.Manifests) != 0 || len(p.DepSteps) != 0 || len(p.Install) != 1 {
			t.Errorf("%s: manifests %v, dep steps %v, install %v: want the install after the repository", pkg, p.Manifests, p.DepSteps, p.Install)
		}
	}
}

func TestJavaScriptRunner(t *testing.T) {
	cases := []struct {
		pkg, format, want string
	}{
		{`{"scripts":{"test":"ts-scripts test"},"devDependencies":{"vitest":"^3"}}`, "vitest", "vitest run --reporter=verbose --reporter=json --outputFile=/logs/verifier/vitest.json 'src/a.spec.ts'"},
		{`{"scripts":{"test":"jest --coverage"},"devDependencies":{"jest":"29","mocha":"1"}}`, "jest", "jest --ci --verbose --json --outputFile=/logs/verifier/jest.json"},
		{`{"scripts":{"test":"mocha --reporter spec --bail --check-leaks -r ./test/setup.js test/"}}`, "mocha", "mocha --check-leaks -r './test/setup.js' --reporter tap 'src/a.spec.ts'"},
		{`{"scripts":{"test":"xo && ava && tsd"},"devDependencies":{"ava":"5","xo":"1"}}`, "ava", "npx --no-install ava --tap --serial --timeout=2m 'src/a.spec.ts'"},
		{`{"scripts":{"test":"npm run unit","unit":"node --test test/"}}`, "node-test", "node --test --test-reporter=tap 'src/a.spec.ts'"},
		{`{"scripts":{"test":"tape test/*.js"}}`, "tape", "npx --no-install tape"},
	}
	for _, c := range cases {
		p := planJS(t, map[string]string{"package.json": c.pkg}, "src/a.spec.ts", "src/__snapshots__/a.spec.ts.snap", "src/a.bench.ts")
		if p.Test.LogFormat != c.format || !strings.Contains(p.Test.Command, c.want) {
			t.Errorf("%s:\n got  %s %q\n want %s %q", c.pkg, p.Test.LogFormat, p.Test.Command, c.format, c.want)
		}
		if strings.Contains(p.Test.Command, "snap") || strings.Contains(p.Test.Command, "bench") {
			t.Errorf("%s: runs a file that is not a test script: %q", c.pkg, p.Test.Command)
		}
	}
}

// The runner's check that tests ran reads the report however it is laid
// out: vitest before 1.0 pretty-prints its JSON report
// ("numPassedTests": 17), and the oracle of a 2023 revision that passed 17
// tests was oracle_failed "the runner passed but reported no tests".
func TestJavaScriptReportCheck(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		pkg, report string
		ran         bool
	}{
		{`{"devDependencies":{"vitest":"0.34.6"}}`, "{\n  \"numFailedTests\": 0,\n  \"numPassedTests\": 17,\n  \"numTotalTests\": 19\n}", true},
		{`{"devDependencies":{"vitest":"^3"}}`, `{"numFailedTests":0,"numPassedTests":3}`, true},
		{`{"devDependencies":{"jest":"29"}}`, `{"numFailedTests":0,"numPassedTests":0,"numTotalTests":0}`, false},
	} {
		p := planJS(t, map[string]string{"package.json": c.pkg}, "test/a.test.ts")
		report := filepath.Join(dir, "report.json")
		if err := os.WriteFile(report, []byte(c.report), 0o644); err != nil {
			t.Fatal(err)
		}
		check := strings.NewReplacer("/logs/verifier/vitest.json", report, "/logs/verifier/jest.json", report).Replace(p.Test.Check)
		err := exec.Command("bash", "-c", check).Run()
		if ran := err == nil; ran != c.ran {
			t.Errorf("%s: check %q on %q: ran %v, want %v", c.pkg, p.Test.Check, c.report, ran, c.ran)
		}
	}
}

func TestJavaScriptRefusals(t *testing.T) {
	for name, c := range map[string]struct {
		files map[string]string
		tests []string
		want  string
	}{
		"no package.json":  {map[string]string{"index.js": ""}, []string{"test.js"}, "no package.json"},
		"bad package.json": {map[string]string{"package.json": "{"}, []string{"test.js"}, "package.json:"},
		"no runner":        {map[string]string{"package.json": `{"scripts":{"test":"echo hi"}}`}, []string{"test.js"}, "no test runner found"},
		"only a snapshot":  {map[string]string{"package.json": `{"devDependencies":{"jest":"1"}}`}, []string{"__snapshots__/a.snap"}, "none of the PR's test files"},
	} {
		_, err := envgen.LanguageFor("javascript").Plan(envgen.MapTree("o/r", c.files), envgen.Tests{Files: c.tests})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want %q", name, err, c.want)
		}
	}
}

func TestRangeAllowsMajor(t *testing.T) {
	cases := []struct {
		rng   string
		major int
		want  bool
	}{
		{">=18", 22, true}, {">=22", 20, false}, {">= 0.6", 22, true}, {"^18.18.0 || >=20", 19, false},
		{"^18.18.0 || >=20", 18, true}, {"18.x", 20, false}, {"16 - 20", 20, true}, {"16 - 20", 22, false},
		{"<20", 20, false}, {"<=20", 20, true}, {"~20.1", 20, true}, {"*", 8, true}, {"", 8, true},
		{">=14.17 <21", 22, false}, {">=14.17 <21", 20, true}, {"^0.10", 18, false}, {"what", 18, true},
	}
	for _, c := range cases {
		if got := envgen.RangeAllowsMajor(c.rng, c.major); got != c.want {
			t.Errorf("rangeAllowsMajor(%q, %d) = %v, want %v", c.rng, c.major, got, c.want)
		}
	}
}

// TestNpmRelaxed runs the install helper (curate-npm-install) with a
// stand-in npm (and the host's node for curate-npm-relax): the registry lacks the pinned top-sites
// 1.1.225 (as for jshttp/cookie), so package.json takes its newest
// version, the lockfile loses its entries of top-sites and only those, and
// the install runs again; a package the registry lacks entirely, or one
// nothing names, still fails, without a retry.
func TestNpmRelaxed(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("no node on this machine")
	}
	const lockV3 = `{"name":"x","lockfileVersion":3,"packages":{"":{"devDependencies":{"top-sites":"^1.1.225","vitest":"^4.1.9"}},` +
		`"node_modules/top-sites":{"version":"1.1.225","resolved":"https://registry.npmjs.org/top-sites/-/top-sites-1.1.225.tgz"},` +
		`"node_modules/top-sites/node_modules/got":{"version":"11.8.6"},` +
		`"node_modules/vitest":{"version":"4.1.9"},"node_modules/not-top-sites":{"version":"2.0.0"}}}`
	const lockTransitive = `{"lockfileVersion":3,"packages":{"":{"devDependencies":{"a":"1.0.0"}},"node_modules/a":{"version":"1.0.0"},` +
		`"node_modules/a/node_modules/top-sites":{"version":"1.1.225"}}}`
	const lockV1 = `{"lockfileVersion":1,"dependencies":{"a":{"version":"1.0.0","dependencies":{"top-sites":{"version":"1.1.225"}}},"vitest":{"version":"4.1.9"}}}`
	for _, c := range []struct {
		name, pkg, lock, views string
		scriptsFail            bool
		ok                     bool
		notes                  []string // in the output
		lockKeeps              []string // still in the lockfile
	}{
		{name: "pinned version missing, no lockfile", pkg: `{"devDependencies":{"top-sites":"1.1.225"}}`, views: "1.1.222", ok: true,
			notes: []string{"curate: note: the npm registry has no version of top-sites that the manifests pin; its newest, 1.1.222, installed instead (package.json devDependencies 1.1.225 -> 1.1.222)"}},
		{name: "pinned version missing, lockfile kept but for it", pkg: `{"devDependencies":{"top-sites":"1.1.225","vitest":"^4.1.9"}}`, lock: lockV3, views: "1.1.222", ok: true,
			notes:     []string{"its newest, 1.1.222, installed instead (package.json devDependencies 1.1.225 -> 1.1.222; package-lock.json without node_modules/top-sites@1.1.225, node_modules/top-sites/node_modules/got@11.8.6, the rest kept)"},
			lockKeeps: []string{`"node_modules/vitest"`, `"node_modules/not-top-sites"`, `"top-sites": "1.1.222"`}},
		{name: "a lifecycle script fails on the retry", pkg: `{"devDependencies":{"top-sites":"1.1.225"}}`, lock: lockV3, views: "1.1.222", scriptsFail: true, ok: true,
			notes: []string{"curate: note: npm install failed (path /app/node_modules/top-sites command sh -c node scripts/postinstall); installing again with --ignore-scripts"}},
		{name: "locked only, under another package", pkg: `{"devDependencies":{"a":"1.0.0"}}`, lock: lockTransitive, views: "1.1.222", ok: true,
			notes: []string{"installed instead (package-lock.json without node_modules/a/node_modules/top-sites@1.1.225, the rest kept)"}, lockKeeps: []string{`"node_modules/a"`}},
		{name: "lockfile v1", pkg: `{"devDependencies":{"a":"1.0.0"}}`, lock: lockV1, views: "1.1.222", ok: true,
			notes: []string{"installed instead (package-lock.json without a > top-sites@1.1.225, the rest kept)"}, lockKeeps: []string{`"vitest"`}},
		{name: "package missing", pkg: `{"devDependencies":{"top-sites":"1.1.225"}}`, lock: lockV3},
		{name: "named nowhere", pkg: `{"devDependencies":{"a":"1.1.225"}}`, views: "1.1.222", notes: []string{"and no manifest names it"}},
	} {
		dir := t.TempDir()
		scripts := ""
		if c.scriptsFail {
			scripts = `case "$*" in *--ignore-scripts*) ;; *) printf 'npm error code 1\nnpm error path /app/node_modules/top-sites\nnpm error command failed\nnpm error command sh -c node scripts/postinstall\n'; exit 1;; esac; `
		}
		fake := `#!/bin/sh
echo "$*" >> calls
case "$1" in
install|ci) if grep -qs '1.1.225' package.json package-lock.json; then echo 'npm error 404 Not Found - GET https://registry.npmjs.org/top-sites/-/top-sites-1.1.225.tgz - Not found'; exit 1; fi; ` + scripts + `echo installed;;
view) test -n "` + c.views + `" && echo "` + c.views + `";;
esac
`
		files := map[string]string{"npm": fake, "package.json": c.pkg, "package-lock.json": c.lock,
			"curate-npm-install": npmInstallSh, "curate-npm-relax": npmRelaxJS}
		for name, text := range files {
			if text == "" {
				continue
			}
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		cmd := exec.Command("sh", "-c", "curate-npm-install ci")
		cmd.Dir = dir
		notesFile := filepath.Join(dir, "notes", "build-notes")
		cmd.Env = append(os.Environ(), "PATH="+dir+":"+os.Getenv("PATH"), "CURATE_BUILD_NOTES="+notesFile)
		out, err := cmd.CombinedOutput()
		notes, _ := os.ReadFile(notesFile)
		pkg, _ := os.ReadFile(filepath.Join(dir, "package.json"))
		lock, _ := os.ReadFile(filepath.Join(dir, "package-lock.json"))
		calls, _ := os.ReadFile(filepath.Join(dir, "calls"))
		for _, n := range c.notes {
			if !strings.Contains(string(out), n) {
				t.Errorf("%s: want %q in the output:\n%s", c.name, n, out)
			}
			if c.ok && !strings.Contains(string(notes), n) {
				t.Errorf("%s: want %q in the build notes file:\n%s", c.name, n, notes)
			}
		}
		if !c.ok && len(notes) > 0 {
			t.Errorf("%s: a failed install wrote build notes:\n%s", c.name, notes)
		}
		for _, k := range c.lockKeeps {
			if !strings.Contains(string(lock), k) {
				t.Errorf("%s: want %s still in the lockfile:\n%s", c.name, k, lock)
			}
		}
		if c.ok {
			if err != nil || strings.Contains(string(pkg)+string(lock), "1.1.225\"") || strings.Contains(string(out), "404 Not Found") || !strings.Contains(string(out), "installed") {
				t.Errorf("%s: err %v, package.json %s, lockfile %s, output:\n%s", c.name, err, pkg, lock, out)
			}
		} else if err == nil || !strings.Contains(string(out), "404 Not Found - GET https://registry.npmjs.org/top-sites/") || strings.Count(string(calls), "install") > 1 {
			t.Errorf("%s: want the install to fail with npm's own 404 line shown and no retry: err %v, calls %q, output:\n%s", c.name, err, calls, out)
		}
	}
}

// TestWithRerun runs the rerun wrapper: a command that fails once then
// passes counts as passed and the log says flaky; one that always fails
// stays failed; one that passes runs once.
func TestWithRerun(t *testing.T) {
	for _, c := range []struct {
		name       string
		failFirst  int // runs that fail before one passes
		wantStatus int
		wantRuns   string
		wantFlaky  bool
	}{
		{"passes", 0, 0, "1", false},
		{"fails once", 1, 0, "2", true},
		{"always fails", 9, 1, "2", false},
	} {
		dir := t.TempDir()
		cmd := fmt.Sprintf(`n=$(( $(cat %[1]s/runs 2>/dev/null || echo 0) + 1 )); echo $n > %[1]s/runs; test $n -gt %[2]d`, dir, c.failFirst)
		script := withRerun(cmd) + "\nstatus=$?\necho status=$status\n"
		out, _ := exec.Command("bash", "-c", script).CombinedOutput()
		runs, _ := os.ReadFile(filepath.Join(dir, "runs"))
		if !strings.Contains(string(out), fmt.Sprintf("status=%d", c.wantStatus)) || strings.TrimSpace(string(runs)) != c.wantRuns ||
			strings.Contains(string(out), "curate: flaky:") != c.wantFlaky {
			t.Errorf("%s: runs %s, output:\n%s", c.name, runs, out)
		}
	}
}

// Without a lockfile the install resolves as of the revision's commit date
// (npm --before); with one, the lockfile decides and no date is passed.
// sindresorhus/p-map keeps no lockfile.
func TestJavaScriptInstallAsOfDate(t *testing.T) {
	for _, c := range []struct {
		lock, want string
	}{
		{"", "curate-npm-install --before 2024-03-05T10:11:12Z install"},
		{"package-lock.json", "curate-npm-install ci"},
	} {
		files := map[string]string{"package.json": `{"devDependencies":{"ava":"6"}}`}
		if c.lock != "" {
			files[c.lock] = "{}"
		}
		tree := envgen.MapTree("o/r", files)
		tree.Date = time.Date(2024, 3, 5, 10, 11, 12, 0, time.UTC)
		p, err := envgen.LanguageFor("javascript").Plan(tree, envgen.Tests{Files: []string{"test.js"}})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.DepSteps) != 1 || !strings.HasSuffix(p.DepSteps[0], " "+c.want) || p.Tools["curate-npm-install"] == "" {
			t.Errorf("lockfile %q: steps %q, want one ending %q with the helper in the tools", c.lock, p.DepSteps, c.want)
		}
	}
}

// Two repositories whose package.json say different things but get the
// same node share the toolchain step word for word, so BuildKit (or
// Docker's layer cache) reuses its layer, 59 MB of node and npm, instead
// of downloading them again for the second repository.
func TestJavaScriptNodeStepIsSharedAcrossRepositories(t *testing.T) {
	a := planJS(t, map[string]string{"package.json": `{"engines":{"node":">=18"},"devDependencies":{"ava":"5"}}`}, "test.js")
	b := planJS(t, map[string]string{"package.json": `{"engines":{"node":">= 0.6"},"devDependencies":{"mocha":"10"}}`}, "test/a.test.js")
	if a.Toolchain.Version != b.Toolchain.Version || a.Toolchain.Why == b.Toolchain.Why {
		t.Fatalf("the cases no longer pick one node for two reasons: %+v, %+v", a.Toolchain, b.Toolchain)
	}
	if sa, sb := strings.Join(a.ToolchainSteps, "\n"), strings.Join(b.ToolchainSteps, "\n"); sa != sb {
		t.Errorf("node %s for two reasons, two toolchain steps:\n%s\n%s", a.Toolchain.Version, sa, sb)
	}
}
