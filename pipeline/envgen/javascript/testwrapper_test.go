package javascript

import (
	"strings"
	"testing"
)

// A JavaScript framework CLI (merge 398a92af, 2019-02-03, PR 5775): its
// scripts.test is "istanbul cover -x \"**/*.test.js\" bin/test", and
// bin/test starts mocha with --require=sinon-bluebird. The verifier ran
// bare mocha on the PR's file, so the oracle failed with "TypeError:
// sinon.stub(...).resolves is not a function" (sinon 1.17 has no
// .resolves; the required module adds it).
func TestMochaOptionsFromTheTestScriptFile(t *testing.T) {
	wrapper := "#!/usr/bin/env node\n'use strict';\nif (process.argv.length <= 2) {\n" +
		"  process.argv.push('lib/**/*.test.js', '--require=sinon-bluebird', '-R', 'spec', '--recursive');\n}\n" +
		"require('mocha/bin/_mocha');\n"
	pkg := `{"scripts":{"test":"istanbul cover -x \"**/*.test.js\" bin/test"},"devDependencies":{"mocha":"^5.2.0","sinon":"^1.17.5","sinon-bluebird":"^3.1.0"}}`
	p := planJS(t, map[string]string{"package.json": pkg, "bin/test": wrapper, "lib/a.test.js": "it('a', () => {})\n"}, "lib/a.test.js")
	if !strings.Contains(p.Test.Command, "--require=sinon-bluebird") || !strings.Contains(p.Test.Command, "--recursive") {
		t.Errorf("the wrapper's --require is not in the command:\n%s", p.Test.Command)
	}
	if strings.Contains(p.Test.Command, "spec") {
		t.Errorf("the wrapper's reporter was kept:\n%s", p.Test.Command)
	}
	if !strings.Contains(strings.Join(p.Notes, "\n"), "bin/test") {
		t.Errorf("no note names bin/test: %q", p.Notes)
	}

	// A script file that does not start mocha gives no options.
	other := "process.argv.push('--require=nothing');\nrequire('./run');\n"
	p = planJS(t, map[string]string{"package.json": strings.Replace(pkg, "bin/test", "scripts/run.js", 1), "scripts/run.js": other}, "lib/a.test.js")
	if strings.Contains(p.Test.Command, "--require") {
		t.Errorf("options taken from a file that does not run mocha:\n%s", p.Test.Command)
	}
}
