package envgen

import (
	"strings"
	"testing"
)

func planJS(t *testing.T, files map[string]string, tests ...string) *Plan {
	t.Helper()
	p, err := LanguageFor("javascript").Plan(MapTree("o/r", files), Tests{Files: tests})
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
			if !strings.Contains(strings.Join(p.ToolchainSteps, "\n"), "python3 /tmp/curate-node.py "+c.want+" ") {
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
		{map[string]string{"package-lock.json": "{}"}, "npm ci "},
		{map[string]string{"npm-shrinkwrap.json": "{}"}, "npm ci "},
		{map[string]string{"yarn.lock": ""}, "npm install -g --no-audit --no-fund yarn@1 && (yarn install --frozen-lockfile"},
		{map[string]string{"yarn.lock": "", ".yarnrc.yml": "yarnPath: .yarn/releases/yarn-4.1.0.cjs\n", ".yarn/releases/yarn-4.1.0.cjs": ""}, "node '.yarn/releases/yarn-4.1.0.cjs' install --immutable"},
		{map[string]string{"pnpm-lock.yaml": "lockfileVersion: '6.0'\n"}, "npm install -g --no-audit --no-fund pnpm@8 "},
		{map[string]string{"pnpm-lock.yaml": "lockfileVersion: '9.0'\n", "package.json": `{"packageManager":"pnpm@9.4.0+sha256.abc","devDependencies":{"mocha":"10"}}`}, "npm install -g --no-audit --no-fund pnpm@9.4.0 "},
		{map[string]string{}, "npm install --no-audit --no-fund || npm install --no-audit --no-fund --ignore-scripts (no lockfile)"},
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
		_, err := LanguageFor("javascript").Plan(MapTree("o/r", c.files), Tests{Files: c.tests})
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
		if got := rangeAllowsMajor(c.rng, c.major); got != c.want {
			t.Errorf("rangeAllowsMajor(%q, %d) = %v, want %v", c.rng, c.major, got, c.want)
		}
	}
}
