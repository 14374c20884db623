package cfamily

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"curate/pipeline/envgen"
)

// A C project whose CI runs its Perl test scripts with prove, in the
// shape of an nginx module's ("Run tests": prove -I. -r t/, over
// t/*.t; openresty/lua-nginx-module, .github/workflows/build_and_test.yml
// at 2b98f7e): the prove command is the test command, perl from Debian.
// A prove command whose folder the tree lacks is not.
func TestPlanRunsTheCIsProve(t *testing.T) {
	for _, c := range []struct{ run, want string }{
		{"prove -I. -r t/", "prove -I. -r t/"},
		{"prove", "prove"},
		{"prove -I lib -v t", "prove -I lib -v t"},
		{"prove -r xt/", ""},
	} {
		tree := envgen.MapTree("o/n", map[string]string{
			"Makefile":                 "all: hello\nhello: hello.c\n\t$(CC) -o $@ $<\n",
			"hello.c":                  "int main(void) { return 0; }\n",
			"lib/Helper.pm":            "package Helper; 1;\n",
			"t/001-hello.t":            "use Test::More tests => 1;\nok(system('./hello') == 0, 'hello exits 0');\n",
			".github/workflows/ci.yml": "jobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make\n      - name: Run tests\n        run: " + c.run + "\n",
		})
		p, err := (lang{"c"}).Plan(tree, envgen.Tests{Files: []string{"t/001-hello.t"}})
		if err != nil {
			t.Fatal(err)
		}
		got := planEnv(p, "CURATE_CI_TEST")
		if got != c.want {
			t.Errorf("CI test %q: CURATE_CI_TEST=%q, want %q", c.run, got, c.want)
		}
		if contains(p.Packages, "perl") != (c.want != "") {
			t.Errorf("CI test %q: perl in the packages: %v", c.run, p.Packages)
		}
		if c.want != "" && !strings.Contains(strings.Join(p.Notes, "\n"), "under t with prove") {
			t.Errorf("CI test %q: the notes do not name prove's folder:\n%s", c.run, strings.Join(p.Notes, "\n"))
		}
	}
}

// prove's per-script TAP (PERL_TEST_HARNESS_DUMP_TAP, as prove 3.44
// writes it: the script's path under the folder) names each script's
// cases; prove -v prints the same lines in the log, which are then not
// read again; a script prove's summary report names fails as a test of
// its own. Automake's serial harness (no .trs) prints PASS:/FAIL: lines.
func TestTestlinesReadsProveScriptsAndAutomakeLines(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	stamp := write("stamp", "")
	write("tap/t/basic.t", "1..2\nok 1 - load\nnot ok 2 - second\n")
	write("tap/test-bin", "1..2\nok 1 - parses a request\nok 2 # SKIP no ipv6\n")
	log := write("log", "t/basic.t .. \n1..2\nok 1 - load\nnot ok 2 - second\nDubious, test returned 1 (wstat 256, 0x100)\n"+
		"./test-bin .. ok\n\nTest Summary Report\n-------------------\nt/basic.t (Wstat: 256 (exited 1) Tests: 2 Failed: 1)\n  Failed test:  2\n"+
		"PASS: t_add\nXFAIL: t_known\nFAIL: t_vrf\nSKIP: t_ipv6\n")
	out := filepath.Join(dir, "out.xml")
	if msg, err := exec.Command("python3", "curate-testlines.py", out, log, filepath.Join(dir, "none"), stamp, filepath.Join(dir, "tap")).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, msg)
	}
	data, _ := os.ReadFile(out)
	got := string(data)
	for _, want := range []string{
		`<testcase classname="t/basic.t" name="load"/>`,
		`<testcase classname="t/basic.t" name="second"><failure`,
		`<testcase classname="test-bin" name="parses a request"/>`,
		`<testcase classname="prove" name="t/basic.t"><failure message="prove's summary report names it"/>`,
		`<testcase classname="prove" name="test-bin"/>`,
		`<testcase classname="automake" name="t_add"/>`,
		`<testcase classname="automake" name="t_known"/>`,
		`<testcase classname="automake" name="t_vrf"><failure message="FAIL"/>`,
		`<testcase classname="automake" name="t_ipv6"><skipped`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("report lacks %s:\n%s", want, got)
		}
	}
	if strings.Contains(got, `classname="tap"`) {
		t.Errorf("the log's TAP lines were read besides prove's per-script TAP:\n%s", got)
	}
}
