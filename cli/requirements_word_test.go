package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"curate/internal/fixtures"
)

// TestRequirementsNameAWordTheCodeHadOnlyAsAName: the shape of a held-out
// JavaScript PR ("Fix const enum for TypeScript", chalk #364): the
// typings declared `const enum Level {None = 0, ...}`, which the compiled
// code never had; the fix adds a runtime object whose reverse mapping the
// tests check, `t.is(Level[Level.None], 'None')`. The word None was in
// the buggy tree only as a name, so the Requirements section left the
// values out and the title-only statement did not give them (the blind
// reading scored it 1 on both questions). A word counts as present only
// quoted.
func TestRequirementsNameAWordTheCodeHadOnlyAsAName(t *testing.T) {
	g, err := fixtures.NewGit(filepath.Join(t.TempDir(), "colors"), "acme/colors")
	if err != nil {
		t.Fatal(err)
	}
	g.Write(map[string]string{
		"package.json":  `{"name": "colors", "version": "1.0.0", "scripts": {"test": "ava"}, "devDependencies": {"ava": "^3.0.0"}}` + "\n",
		"index.js":      "'use strict';\nconst colors = {level: 0};\nmodule.exports = colors;\n",
		"index.d.ts":    "export const enum Level {\n\tNone = 0,\n\tBasic = 1\n}\n",
		"test/level.js": "const test = require('ava');\nconst colors = require('..');\n\ntest('level', t => {\n\tt.is(colors.level, 0);\n});\n",
	})
	g.Commit("Initial colors")
	g.Branch("enum")
	g.Write(map[string]string{
		"index.js": "'use strict';\nconst Level = {\n\tNone: 0,\n\tBasic: 1,\n\t0: 'None',\n\t1: 'Basic'\n};\nconst colors = {level: 0, Level};\nmodule.exports = colors;\n",
		"test/level.js": "const test = require('ava');\nconst colors = require('..');\n\ntest('level', t => {\n\tt.is(colors.level, 0);\n});\n\n" +
			"test('Level enum object', t => {\n\tconst {Level} = colors;\n\tt.is(Level[Level.None], 'None');\n\tt.is(Level[Level.Basic], 'Basic');\n});\n",
	})
	g.Commit("Export the Level enum at runtime")
	g.MergePR(3, "enum", "Fix const enum for TypeScript", "")
	if err := g.Err(); err != nil {
		t.Fatal(err)
	}
	ws := newWorkspace(t)
	if code, _, e := cli(t, "-w", ws, "mine", "git", g.Dir, "--repo", "acme/colors", "--preset", "none"); code != 0 {
		t.Fatal(e)
	}
	const id = "acme__colors-3"
	if code, out, e := cli(t, "-w", ws, "build", id); code != 0 {
		t.Fatalf("build: %s%s", out, e)
	}
	m := showTaskJSON(t, ws, id)
	r := jsonText(m["requirements"])
	for _, want := range []string{`"None"`, `"Basic"`} {
		if !strings.Contains(r, want) {
			t.Errorf("requirements %s lack %s", r, want)
		}
	}
	text := readFile(t, filepath.Join(ws, "tasks", id, "instruction.md"))
	if !strings.Contains(text, "## Requirements") || !strings.Contains(text, "`None`") {
		t.Errorf("instruction.md does not give the values:\n%s", text)
	}
}
