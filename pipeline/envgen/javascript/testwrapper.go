package javascript

import (
	"curate/pipeline/envgen"
	"regexp"
	"strings"
)

var (
	jsStringRe   = regexp.MustCompile(`'([^'\\\n]*)'|"([^"\\\n]*)"`)
	loadsMochaRe = regexp.MustCompile(`require\(\s*['"]mocha(?:/[^'"]*)?['"]\s*\)|\bmocha\b`)
)

// wrapperMochaArgs reads a test script that runs one of the repository's
// own files ("istanbul cover bin/test", "node scripts/test.js") which
// starts mocha with arguments of its own: it returns "mocha" followed by
// that file's string literals from the first option on, for mochaOptions
// to keep the loading ones (--require=sinon-bluebird adds the stubs'
// .resolves the suites call). Empty when no such file is run.
func wrapperMochaArgs(tree *envgen.Tree, script string) (args, file string) {
	for _, w := range scriptWordRe.FindAllString(script, -1) {
		f := strings.TrimPrefix(w, "./")
		if f == "" || !tree.Has(f) || !strings.Contains(f, "/") && !strings.HasSuffix(f, ".js") {
			continue
		}
		text := tree.Text(f)
		if !loadsMochaRe.MatchString(text) {
			continue
		}
		var lits []string
		for _, m := range jsStringRe.FindAllStringSubmatch(text, -1) {
			s := m[1] + m[2]
			if len(lits) == 0 && !strings.HasPrefix(s, "-") {
				continue
			}
			if s != "" && !strings.ContainsAny(s, " \t") {
				lits = append(lits, s)
			}
		}
		if len(lits) > 0 {
			return "mocha " + strings.Join(lits, " "), f
		}
	}
	return "", ""
}
