package validate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"curate/pipeline"
)

func TestEmbeddedRulesLoad(t *testing.T) {
	if _, err := ParseRules("classes.toml", classesTOML); err != nil {
		t.Fatal(err)
	}
}

func TestParseRulesRejectsBadInput(t *testing.T) {
	for name, c := range map[string]struct{ data, want string }{
		"unknown key":   {"[[rule]]\nclass = \"oom\"\nmatch = \"x\"\nbogus = 1\n", "rules.toml:4"},
		"unknown class": {"[[rule]]\nclass = \"valid\"\nmatch = \"x\"\n", `rule 1: class "valid"`},
		"bad regexp":    {"[[rule]]\nclass = \"oom\"\nmatch = \"(\"\n", "rule 1 (oom): match"},
		"missing group": {"[[rule]]\nclass = \"oom\"\nmatch = \"x\"\nhost = 2\n", "group the expression lacks"},
		"not toml":      {"[[rule]\n", "rules.toml:1"},
	} {
		_, err := ParseRules("rules.toml", []byte(c.data))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to say %q", name, err, c.want)
		}
	}
}

// The logs in testdata/classify were captured from real runs of curate on
// the bundles in ../shared/repos (see each case).
func TestClassifyCapturedLogs(t *testing.T) {
	cases := []struct {
		file, lang, repo, mode string
		outcome                pipeline.Outcome
		detail                 string
		class, evidence, sugg  string
	}{
		// FROM ubuntu:24.04 on a machine without a container registry.
		{"docker-pull-ubuntu.log", "python", "pallets/click", "nop", pipeline.OutcomeBuildFailed, "",
			pipeline.ClassDepsUnreachable, "registry-1.docker.io", `[repos."pallets/click"] base_image = "curate/base:bookworm"  # the base image ubuntu:24.04 cannot be pulled`},
		// click's src/ layout on an image without pip: the project is never
		// installed, the suite never starts, NOP still gave 0. The build
		// log names the cause.
		{"python-click-nop-src-layout.log", "python", "pallets/click", "nop", pipeline.OutcomeNopNotRun, "",
			pipeline.ClassToolchainMismatch, "No module named pip", `dockerfile = ["RUN apt-get install -y python3-pip`},
		// A later run on the cached image shows only the test output.
		{"python-click-oracle-src-layout.log", "python", "pallets/click", "oracle", pipeline.OutcomeOracleFailed, "",
			pipeline.ClassDepsMissing, "No module named 'click'", `install = ["python3 -m pip install --no-deps -e ."]  # the project's own package click`},
		// cobra on the bootstrap image: the build's module downloads fail on
		// the TLS-intercepting proxy's certificate...
		{"go-cobra-nop-x509.log", "go", "spf13/cobra", "nop", pipeline.OutcomeNopNotRun, "",
			pipeline.ClassDepsUnreachable, "x509: certificate signed by unknown authority", `[docker] ca_bundle = "/etc/ssl/certs/ca-certificates.crt"  # proxy.golang.org is unreachable`},
		// ...so the offline test container tries to fetch them again.
		{"go-cobra-oracle-offline.log", "go", "spf13/cobra", "oracle", pipeline.OutcomeOracleFailed, "",
			pipeline.ClassDepsUnreachable, "lookup proxy.golang.org", "proxy.golang.org"},
		// The same line in another repo is a dependency to install.
		{"python-click-oracle-src-layout.log", "python", "someone/app", "oracle", pipeline.OutcomeOracleFailed, "",
			pipeline.ClassDepsMissing, "No module named 'click'", `[repos."someone/app"] dockerfile = ["RUN python3 -m pip install click"]`},
	}
	c := DefaultClassifier()
	for _, tc := range cases {
		log, err := os.ReadFile(filepath.Join("testdata", "classify", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		run := &pipeline.Run{Mode: tc.mode, Outcome: tc.outcome, Detail: tc.detail}
		f := c.Classify(ClassifyInput{Run: run, Language: tc.lang, Repo: tc.repo, Log: log})
		if f == nil || f.Class != tc.class || !strings.Contains(f.Evidence, tc.evidence) || !strings.Contains(f.Suggestion, tc.sugg) {
			t.Errorf("%s (%s): got %+v\nwant class %s, evidence with %q, suggestion with %q", tc.file, tc.repo, f, tc.class, tc.evidence, tc.sugg)
		}
	}
}

// vitest 4.0.4 in unjs/ofetch's image (snapshot dfbe3ca4) on a spec file
// that only exports shared cases (test/cases.spec.ts, "export const cases
// = [1, 2];"): the run fails with "No test suite found in file", which was
// classed unclassified.
func TestClassifyVitestNoSuite(t *testing.T) {
	log, err := os.ReadFile(filepath.Join("testdata", "classify", "vitest-no-suite.log"))
	if err != nil {
		t.Fatal(err)
	}
	f, ok := DefaultClassifier().Match("typescript", "unjs/ofetch", log)
	if !ok || f.Class != pipeline.ClassNoTestsCollected || f.Evidence != "Error: No test suite found in file /app/test/cases.spec.ts" {
		t.Errorf("got %+v, want no_tests_collected with vitest's line", f)
	}
}

// One line per pattern family the issue names, as the tools print them.
func TestClassifyLines(t *testing.T) {
	cases := []struct {
		lang, line, class, want string
	}{
		{"python", "E   ModuleNotFoundError: No module named 'simplejson'", pipeline.ClassDepsMissing, "pip install simplejson"},
		{"python", "ERROR: No matching distribution found for nosuchpkg-xyz==9.9", pipeline.ClassDepsMissing, "nosuchpkg-xyz==9.9"},
		{"python", "ERROR: Package 'attrs' requires a different Python: 3.11.2 not in '<3.8'", pipeline.ClassToolchainMismatch, "Python <3.8, the image has 3.11.2"},
		{"python", "AttributeError: module 'collections' has no attribute 'MutableMapping'", pipeline.ClassToolchainMismatch, "Python older than 3.10"},
		// The crate without Cargo.lock on rustc 1.85: cargo names
		// the package and its rustc, on the line after its error: line.
		{"rust", "icu_collections@2.1.1 requires rustc 1.88", pipeline.ClassToolchainMismatch, "icu_collections@2.1.1 needs rustc 1.88"},
		{"rust", "error: package `home v0.5.12` cannot be built because it requires rustc 1.88 or newer, while the currently active rustc version is 1.85.0", pipeline.ClassToolchainMismatch, "home v0.5.12 needs rustc 1.88, the image has 1.85.0"},
		{"rust", "error: rustc 1.85.0 is not supported by the following packages:", pipeline.ClassToolchainMismatch, "newer rustc than the image's 1.85.0"},
		{"python", "collected 0 items", pipeline.ClassNoTestsCollected, "ran no test"},
		// attrs PRs whose only tests need pyright, which the image lacks.
		{"python", "============================== 3 skipped in 0.01s ==============================", pipeline.ClassNoTestsCollected, ""},
		{"python", "======== 2 skipped, 1 warning in 0.30s ========", pipeline.ClassNoTestsCollected, ""},
		{"go", "go: go.mod requires go >= 1.22 (running go 1.19.8; GOTOOLCHAIN=local)", pipeline.ClassToolchainMismatch, "wants Go 1.22, the image runs Go 1.19.8"},
		{"go", "go: cannot find main module, but found .git/config in /app", pipeline.ClassToolchainMismatch, "GO111MODULE=off"},
		{"go", `cgo: C compiler "gcc" not found: exec: "gcc": executable file not found in $PATH`, pipeline.ClassToolchainMismatch, "CGO_ENABLED=0"},
		{"go", "package example.com/x/y: build constraints exclude all Go files in /app/y", pipeline.ClassCompileError, "build constraints"},
		{"go", "command_test.go:12:3: undefined: flag.FlagSet.BoolFunc", pipeline.ClassCompileError, "undefined"},
		{"go", "main.go:4:2: no required module provides package github.com/x/y; to add it:", pipeline.ClassDepsMissing, "github.com/x/y"},
		{"javascript", "npm ERR! 404 Not Found - GET https://registry.npmjs.org/nosuch-pkg - Not found", pipeline.ClassDepsMissing, "nosuch-pkg"},
		// jest on a spec file that only exports shared cases.
		{"javascript", "Your test suite must contain at least one test.", pipeline.ClassNoTestsCollected, "at least one test"},
		{"typescript", "npm error code ENOTCACHED", pipeline.ClassDepsUnreachable, "registry.npmjs.org"},
		{"rust", "error: failed to select a version for the requirement `serde = \"^9.0\"`", pipeline.ClassDepsMissing, "serde"},
		{"rust", "error: no matching package named `nosuch` found", pipeline.ClassDepsMissing, "nosuch"},
		// The Java repository A on Debian's Maven: the line
		// maven-enforcer-plugin 3.x prints under "Rule 0: ...RequireMavenVersion failed".
		{"java", "[ERROR] Detected Maven Version: 3.8.7 is not in the allowed range [3.9,).", pipeline.ClassToolchainMismatch, "wants Maven [3.9,), the image has 3.8.7"},
		{"java", "Detected JDK Version: 17.0.15 is not in the allowed range [21,).", pipeline.ClassToolchainMismatch, "wants JDK [21,), the image has 17.0.15"},
		{"java", "[ERROR] Failed to execute goal on project javapoet: Could not resolve dependencies for project com.squareup:javapoet:jar:1.14.0", pipeline.ClassDepsMissing, "Maven"},
		{"java", "java.lang.RuntimeException: java.lang.IllegalAccessError: failed to access class com.google.common.collect.MoreCollectors from class com.google.testing.compile.InMemoryJavaFileManager", pipeline.ClassDepsMissing, "dependencyManagement"},
		{"java", `java.lang.reflect.InaccessibleObjectException: Unable to make field private final byte[] java.lang.String.value accessible: module java.base does not "opens java.lang" to unnamed module @6d06d69c`, pipeline.ClassToolchainMismatch, "--add-opens=java.base/java.lang=ALL-UNNAMED"},
		{"java", "java.lang.IllegalAccessError: class com.google.testing.compile.Compiler (in unnamed module @0x1) cannot access class com.sun.tools.javac.api.JavacTool (in module jdk.compiler) because module jdk.compiler does not export com.sun.tools.javac.api to unnamed module @0x1", pipeline.ClassToolchainMismatch, "--add-exports=jdk.compiler/com.sun.tools.javac.api=ALL-UNNAMED"},
		{"python", "curl: (6) Could not resolve host: pypi.org", pipeline.ClassDepsUnreachable, "pypi.org"},
		{"python", "SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed'))", pipeline.ClassDepsUnreachable, "PyPI"},
		{"go", "Get \"https://proxy.golang.org/x/@v/list\": tls: failed to verify certificate: x509: certificate signed by unknown authority", pipeline.ClassDepsUnreachable, "ca_bundle"},
		{"javascript", "npm ERR! errno ECONNREFUSED", pipeline.ClassDepsUnreachable, "registry.npmjs.org"},
		{"rust", "warning: spurious network error: Temporary failure in name resolution", pipeline.ClassDepsUnreachable, "crates.io"},
		{"go", "fatal error: runtime: out of memory", pipeline.ClassOOM, "out of memory"},
		// apache/commons-text-763's oracle: Surefire's forked JVM ran out
		// of heap ("There was an error in the forked process" then this),
		// read as unclassified before.
		{"java", "[ERROR] Java heap space", pipeline.ClassOOM, "memory"},
		// The environment's own evidence lines (pipeline/envgen's curate-step).
		{"python", "curate: deps_unreachable: PyPI (https://pypi.org/simple) did not answer: SSLError(...)", pipeline.ClassDepsUnreachable, "PyPI (https://pypi.org/simple) did not answer"},
		{"go", "curate: toolchain_mismatch: go.mod wants 1.99, present go1.22.12; the module proxy (https://proxy.golang.org) has no go1.99", pipeline.ClassToolchainMismatch, "go.mod wants 1.99"},
		{"python", "curate: deps_missing: nosuchpkg (not on PyPI)", pipeline.ClassDepsMissing, "nosuchpkg (not on PyPI)"},
		// libssh2's Oracle: its sshd tests build their server image with
		// `docker build` inside the test container; it was fix_fails_tests.
		{"c", "Error running command 'docker build --quiet -t libssh2/openssh_server %s' (exit 32512): sh: 1: docker: not found", pipeline.ClassDepsMissing, "no container engine"},
	}
	c := DefaultClassifier()
	for _, tc := range cases {
		f, ok := c.Match(tc.lang, "o/n", []byte("some noise\n"+tc.line+"\nmore noise\n"))
		if !ok || f.Class != tc.class || f.Evidence != tc.line || !strings.Contains(f.Suggestion, tc.want) {
			t.Errorf("%s %q:\n got %+v\nwant class %s, suggestion with %q", tc.lang, tc.line, f, tc.class, tc.want)
		}
	}
}

// A DNS library's test output names its own status codes (a c-ares PR's
// Oracle: "Which is: ARES_ENOTFOUND"); they are not the network's, and
// reading them as deps_unreachable kept the task from its verdict.
func TestClassifyLibraryStatusCodeIsNotTheNetwork(t *testing.T) {
	c := DefaultClassifier()
	for _, line := range []string{"  Which is: ARES_ENOTFOUND", "Expected: ARES_ECONNREFUSED, actual: ARES_ETIMEDOUT"} {
		if f, ok := c.Match("cpp", "o/n", []byte("[ RUN      ] LiveSearch.Basic\n"+line+"\n")); ok {
			t.Errorf("%q: classed %+v, want no class", line, f)
		}
	}
	if f, ok := c.Match("cpp", "o/n", []byte("connect: ECONNREFUSED 127.0.0.1:443\n")); !ok || f.Class != pipeline.ClassDepsUnreachable {
		t.Errorf("a bare ECONNREFUSED: %+v, want deps_unreachable", f)
	}
}

// Skips beside tests that ran are no class of their own.
func TestClassifySomeSkippedIsNoClass(t *testing.T) {
	for _, line := range []string{"=== 1 failed, 3 skipped in 0.10s ===", "=== 5 passed, 3 skipped in 0.10s ==="} {
		if f, ok := DefaultClassifier().Match("python", "o/n", []byte(line+"\n")); ok {
			t.Errorf("%q: got %+v, want no class", line, f)
		}
	}
}

// cargo's lines after a test that failed are not compile errors: the
// oracle of dtolnay/anyhow-229 (one test, test_ensure::test_path, failing
// on this rustc in both states) was classed compile_error with "error:
// test failed, to rerun pass `--test test_ensure`" as evidence. A real
// compile error beside them still wins.
func TestClassifyCargoTestFailureIsNoCompileError(t *testing.T) {
	log := "test test_path ... FAILED\ntest result: FAILED. 15 passed; 1 failed\nerror: test failed, to rerun pass `--test test_ensure`\nerror: 1 target failed:\n    `--test test_ensure`\n"
	if f, ok := DefaultClassifier().Match("rust", "o/n", []byte(log)); ok {
		t.Errorf("got %+v, want no class", f)
	}
	f, ok := DefaultClassifier().Match("rust", "o/n", []byte(log+"error[E0425]: cannot find function `ensure2` in this scope\n"))
	if !ok || f.Class != pipeline.ClassCompileError || !strings.Contains(f.Evidence, "E0425") {
		t.Errorf("got %+v, want the E0425 line as compile_error", f)
	}
}

// A network failure explains the missing package it causes.
func TestClassifyPrefersUnreachableOverMissing(t *testing.T) {
	log := "WARNING: Retrying after connection broken by 'NewConnectionError: [Errno -3] Temporary failure in name resolution': /simple/simplejson/\n" +
		"ERROR: No matching distribution found for simplejson\n" +
		"E   ModuleNotFoundError: No module named 'simplejson'\n"
	f, _ := DefaultClassifier().Match("python", "a/b", []byte(log))
	if f == nil || f.Class != pipeline.ClassDepsUnreachable || !strings.Contains(f.Suggestion, "PyPI") {
		t.Fatalf("got %+v", f)
	}
}

func TestClassifyByOutcome(t *testing.T) {
	c := DefaultClassifier()
	cases := []struct {
		run   pipeline.Run
		log   string
		class string
	}{
		{pipeline.Run{Mode: "nop", Outcome: pipeline.OutcomeOK}, "", ""},
		{pipeline.Run{Mode: "nop", Outcome: pipeline.OutcomeNopPassed}, "", pipeline.ClassNoFailToPass},
		{pipeline.Run{Mode: "nop", Outcome: pipeline.OutcomeNopPassed}, "PASSED tests/test_a.py::test_one\n==== 1 passed in 0.01s ====\n", pipeline.ClassNoFailToPass},
		{pipeline.Run{Mode: "oracle", Outcome: pipeline.OutcomeTimeout, Detail: "container ran longer than 10s"}, "", pipeline.ClassTimeout},
		{pipeline.Run{Mode: "gold", Outcome: pipeline.OutcomeFlaky, Detail: "2 tests change status"}, "", pipeline.ClassFlaky},
		{pipeline.Run{Mode: "nop", Outcome: pipeline.OutcomeNopNotRun}, "bash: line 3: cd: /app/x: No such file or directory\n", pipeline.ClassNopNotRun},
		{pipeline.Run{Mode: "oracle", Outcome: pipeline.OutcomeOracleFailed}, "FAILED tests/test_a.py::test_one - assert 1 == 2\n", pipeline.ClassFixFailsTests},
		{pipeline.Run{Mode: "gold", Outcome: pipeline.OutcomeInfraError, Detail: "buggy state: the log shows no sign the test suite ran"}, "nothing\n", pipeline.ClassNopNotRun},
		{pipeline.Run{Mode: "nop", Outcome: pipeline.OutcomeInfraError, Detail: "infrastructure: engine gone"}, "", pipeline.ClassInfraError},
		{pipeline.Run{Mode: "nop", Outcome: pipeline.OutcomeBuildFailed, Detail: "build environment image: Step 4/9: exit 1"}, "something odd\n", pipeline.ClassUnclassified},
		{pipeline.Run{Mode: "oracle", Outcome: pipeline.OutcomeTimeout}, "java.lang.OutOfMemoryError: Java heap space\n", pipeline.ClassOOM},
		{pipeline.Run{Mode: "oracle", Outcome: outcomeOOM, Detail: "stopped at its 2048 MiB memory limit"}, "", pipeline.ClassOOM},
	}
	for _, tc := range cases {
		f := c.Classify(ClassifyInput{Run: &tc.run, Language: "python", Repo: "a/b", Log: []byte(tc.log)})
		got := ""
		if f != nil {
			got = f.Class
			if f.Evidence == "" {
				t.Errorf("%s %s: class %s without evidence", tc.run.Mode, tc.run.Outcome, got)
			}
		}
		if got != tc.class {
			t.Errorf("%s %s: class %q, want %q (%+v)", tc.run.Mode, tc.run.Outcome, got, tc.class, f)
		}
	}
}

func FuzzClassify(f *testing.F) {
	f.Add([]byte("E   ModuleNotFoundError: No module named 'x'\n"), "python")
	f.Add([]byte("go: go.mod requires go >= 1.22 (running go 1.19)\n"), "go")
	f.Fuzz(func(t *testing.T, log []byte, lang string) {
		run := &pipeline.Run{Mode: "oracle", Outcome: pipeline.OutcomeOracleFailed}
		fl := DefaultClassifier().Classify(ClassifyInput{Run: run, Language: lang, Repo: "a/b", Log: log})
		if fl == nil || fl.Class == "" || len(fl.Evidence) > maxEvidence+len("…") {
			t.Fatalf("failure %+v", fl)
		}
	})
}

// A NOP that passes names the PR's tests and their status on the buggy
// state: the evidence of a true negative.
func TestNoFailToPassEvidenceFromNop(t *testing.T) {
	run := &pipeline.Run{Mode: "nop", Outcome: pipeline.OutcomeNopPassed}
	log := "PASSED tests/test_a.py::test_one\nPASSED tests/test_a.py::test_two\n==== 2 passed in 0.01s ====\n"
	f := DefaultClassifier().Classify(ClassifyInput{Run: run, Language: "python", Log: []byte(log)})
	if f == nil || f.Class != pipeline.ClassNoFailToPass || !strings.Contains(f.Evidence, "tests/test_a.py::test_one PASSED; tests/test_a.py::test_two PASSED") {
		t.Fatalf("got %+v", f)
	}
}

// A NOP run whose test file throws while it loads (mocha on jshttp/mime-types
// #119: the buggy tree lacks what the PR's test iterates) names the thrown
// error, not the last line of its stack.
func TestClassifyNopNotRunNamesTheError(t *testing.T) {
	log := "Step 3/9 : RUN x\nERROR: build noise before the verifier\ncurate: verifier: bash /tests/test.sh\n" +
		"Mime-score logic changes extension->type mappings for the following:\n" +
		"TypeError: mimeTypes._extensionConflicts is not iterable\n" +
		"    at Suite.<anonymous> (/app/test/test.js:233:56)\n" +
		"    at async exports.handler (/app/node_modules/mocha/lib/cli/run.js:370:5)\n" +
		"curate: test status 1\n"
	run := &pipeline.Run{Mode: "nop", Outcome: pipeline.OutcomeNopNotRun, Detail: "NOP reward 0, but the log shows no sign the test suite ran"}
	f := DefaultClassifier().Classify(ClassifyInput{Run: run, Language: "javascript", Repo: "jshttp/mime-types", Log: []byte(log)})
	if f == nil || f.Class != pipeline.ClassNopNotRun || f.Evidence != "TypeError: mimeTypes._extensionConflicts is not iterable" {
		t.Errorf("failure %+v", f)
	}
}

// A failed build's detail quotes the step's command, whose sed patterns
// name errors ("Could not find artifact"): the quote is not evidence.
// javapoet PR #681 at its merge commit: the image build's first Maven
// run fails on a test source that does not compile; the classic
// builder's closing line quotes the RUN command with its sed patterns.
func TestClassifySkipsTheBuildersCommandLine(t *testing.T) {
	log := "[ERROR] COMPILATION ERROR : \n" +
		"[ERROR] /app/src/test/java/com/squareup/javapoet/MethodSpecTest.java:[184,29] error: ';' expected\n" +
		"The command '/bin/sh -c curate-step \"Maven Central\" 's/.*Could not find artifact ([^ ]+).*/\\1/p' sh -c 'mvn -B test' returned a non-zero code: 1\n"
	f, ok := DefaultClassifier().Match("java", "square/javapoet", []byte(log))
	if !ok || f.Class != pipeline.ClassCompileError || !strings.HasPrefix(f.Evidence, "[ERROR] /app/src/test/java/com/squareup/javapoet/MethodSpecTest.java:[184,29]") {
		t.Errorf("got %+v, want compile_error naming the file (Maven's first [ERROR] with a file)", f)
	}
}

func TestClassifySkipsQuotedSteps(t *testing.T) {
	log := "curate: build_failed: build environment image: Step 24/32 : RUN curate-step \"Maven Central\" 's/.*Could not find artifact ([^ ]+).*/\\1/p' mvn -B test: The command '/bin/sh -c curate-step \"Maven Central\" 's/.*Could not find artifact ([^ ]+).*/\\1/p' mvn -B test' returned a non-zero code: 1\n"
	if f, ok := DefaultClassifier().Match("java", "square/javapoet", []byte(log)); ok {
		t.Errorf("the quoted command was taken for evidence: %+v", f)
	}
	log += "[ERROR]  1) dummy:dummy:jar:1.0: Read timed out\n[ERROR] Could not find artifact org.x:y:jar:1.0 in central\n"
	if f, ok := DefaultClassifier().Match("java", "square/javapoet", []byte(log)); !ok || !strings.HasPrefix(f.Evidence, "[ERROR] Could not find artifact") {
		t.Errorf("the output line after it must still count: %+v", f)
	}
}

// curate's own evidence lines count only where curate's build steps
// wrote them: the same line printed by a test does not class the run.
func TestTestPrintedEvidenceNotTrusted(t *testing.T) {
	c := DefaultClassifier()
	run := &pipeline.Run{Outcome: pipeline.OutcomeRewardMissing}
	build := "curate: nop t on h\nStep 3/4 : RUN pip install x\n"
	forged := "curate: deps_missing: forged by the test (not on PyPI)\n"
	for _, c2 := range []struct {
		log  string
		cut  bool
		want bool
	}{
		{build + forged + "The command failed\n", false, true}, // the build's own line
		{build + "curate: built image curate-env:1\ncurate: verifier: bash /tests/test.sh\n" + forged, false, false},
		{build + "curate: image curate-env:1 is up to date, no build\n" + forged, false, false},
		{"...the end of a long test log\n" + forged, true, false}, // the head with the build was cut
	} {
		f := c.Classify(ClassifyInput{Run: run, Log: []byte(c2.log), Cut: c2.cut})
		if got := f != nil && f.Class == pipeline.ClassDepsMissing; got != c2.want {
			t.Errorf("log %q: failure %+v, want deps_missing %v", c2.log, f, c2.want)
		}
	}
}
