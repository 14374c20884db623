package javascript

import (
	"curate/pipeline/envgen"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// wsTree is an npm workspace whose docs member depends on a package the
// registry lacks; the PR's tests are in packages/cli, which depends on
// packages/lib.
var wsTree = map[string]string{
	"package.json":                  `{"name":"root","private":true,"workspaces":["packages/*","!packages/legacy"],"scripts":{"test":"npm test --workspaces"}}`,
	"package-lock.json":             "{}",
	"packages/lib/package.json":     `{"name":"@x/lib","version":"1.0.0","dependencies":{"ms":"^2"}}`,
	"packages/cli/package.json":     `{"name":"@x/cli","version":"1.0.0","dependencies":{"@x/lib":"*"},"devDependencies":{"vitest":"^3"},"scripts":{"test":"vitest run"}}`,
	"packages/docs/package.json":    `{"name":"@x/docs","version":"1.0.0","dependencies":{"curate-no-such-pkg-4b7e":"^1"}}`,
	"packages/legacy/package.json":  `{"name":"@x/legacy","version":"1.0.0"}`,
	"packages/cli/test/cli.test.ts": "import { test } from \"vitest\";\ntest(\"runs\", () => {});\n",
}

func TestWorkspacePlan(t *testing.T) {
	tree := envgen.MapTree("o/r", wsTree)
	p, err := envgen.LanguageFor("typescript").Plan(tree, envgen.Tests{Files: []string{"packages/cli/test/cli.test.ts"}})
	if err != nil {
		t.Fatal(err)
	}
	install := strings.Join(p.Install, "\n")
	if !strings.Contains(install, "curate-npm-install ci) || { echo ") || !strings.Contains(install, "curate-npm-focus '\\''packages/cli'\\'' '\\''packages/lib'\\''") || p.Tools["curate-npm-focus"] == "" {
		t.Errorf("install %q: want the full install, then only packages/cli and packages/lib", install)
	}
	if !strings.HasPrefix(p.Test.Command, "cd '/app/packages/cli'\n") || !strings.Contains(p.Test.Command, "vitest run --reporter=verbose --reporter=json --outputFile=/logs/verifier/vitest.json 'test/cli.test.ts'") {
		t.Errorf("test command %q: want the member's vitest from its folder", p.Test.Command)
	}
}

// The helper against the npm registry: npm install fails on the docs
// member ("npm error 404 Not Found - GET
// https://registry.npmjs.org/curate-no-such-pkg-4b7e - Not found", as npm
// 11 prints it), and npm install --workspace=packages/lib fails the same
// way (npm resolves every member); curate-npm-focus installs lib alone
// and puts package.json back.
func TestNpmFocusInstallsOnlyNeededMembers(t *testing.T) {
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("no npm on this machine")
	}
	if os.Getenv("CURATE_NETWORK_TESTS") == "" {
		t.Skip("needs the npm registry: set CURATE_NETWORK_TESTS=1")
	}
	dir := t.TempDir()
	for name, text := range map[string]string{"package.json": wsTree["package.json"], "packages/lib/package.json": wsTree["packages/lib/package.json"],
		"packages/docs/package.json": wsTree["packages/docs/package.json"], "bin/curate-npm-focus": npmFocusJS} {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	full := exec.Command("npm", "install", "--no-audit", "--no-fund")
	full.Dir = dir
	if out, err := full.CombinedOutput(); err == nil || !strings.Contains(string(out), "404") {
		t.Fatalf("the full install should fail on the docs member: %v\n%s", err, out)
	}
	cmd := exec.Command(filepath.Join(dir, "bin", "curate-npm-focus"), "packages/lib")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+filepath.Join(dir, "bin")+":"+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	pkg, _ := os.ReadFile(filepath.Join(dir, "package.json"))
	if _, statErr := os.Stat(filepath.Join(dir, "node_modules", "ms")); err != nil || statErr != nil || string(pkg) != wsTree["package.json"] {
		t.Errorf("focused install: %v, ms %v, package.json %s\n%s", err, statErr, pkg, out)
	}
}
