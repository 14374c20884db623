package parse

import (
	"os"
	"path/filepath"
	"testing"
)

// Surefire 2.12's console (no "- in Class" on its summary lines) followed
// by its XML report, as test.sh logs them: captured from square/javapoet
// on JDK 17 (trimmed), where every test of the class errors.
func TestSurefirePrefersXMLReports(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "surefire.txt"))
	if err != nil {
		t.Fatal(err)
	}
	r := ForFormat("surefire", data)
	if !r.Ran || len(r.Tests) != 11 {
		t.Fatalf("ran %v, %d tests: %v", r.Ran, len(r.Tests), r.Tests)
	}
	for _, id := range []string{"com.squareup.javapoet.AnnotationSpecTest.disallowsNullMemberName", "com.squareup.javapoet.AnnotationSpecTest.defaultAnnotationToBuilder"} {
		if r.Tests[id] != Error {
			t.Errorf("%s: %q, want ERROR", id, r.Tests[id])
		}
	}
	if a := Auto(data); a.Framework != "maven" || len(a.Tests) != 11 {
		t.Errorf("Auto: %s with %d tests", a.Framework, len(a.Tests))
	}
}

func TestTestsThatDoNotCompileRan(t *testing.T) {
	for format, log := range map[string]string{
		"cargo":    "   Compiling bytes v1.10.1 (/app)\nerror[E0599]: no method named `extend_from_within` found for struct `BytesMut` in the current scope\nerror: could not compile `bytes` (test \"test_bytes\") due to 1 previous error\n",
		"surefire": "[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.12.1:testCompile (default-testCompile) on project javapoet: Compilation failure\n",
	} {
		if r := ForFormat(format, []byte(log)); !r.Ran || len(r.Tests) != 0 {
			t.Errorf("%s: ran %v with %v: the PR's tests not compiling before the fix is a run where they all fail", format, r.Ran, r.Tests)
		}
	}
	if r := Cargo([]byte("error: could not compile `bytes` (lib) due to 1 previous error\n")); r.Ran {
		t.Error("the library itself not compiling is no test run")
	}
}

func FuzzSurefire(f *testing.F) { fuzzParser(f, Maven, "surefire.txt") }

// Surefire 2.12.4 (javapoet's pom, Maven's default binding) prints a
// failing method without a log level; the oracle log of javapoet PR #789
// has only these lines, no XML reports.
func TestSurefire212ConsoleFailure(t *testing.T) {
	log := []byte("-------------------------------------------------------\n T E S T S\n-------------------------------------------------------\n" +
		"Running com.squareup.javapoet.ParameterSpecTest\n" +
		"Tests run: 10, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 2.514 sec <<< FAILURE!\n" +
		"parameterVariableElement(com.squareup.javapoet.ParameterSpecTest)  Time elapsed: 0.217 sec  <<< FAILURE!\n" +
		"expected: java.lang.String arg0\n")
	r := Maven(log)
	if !r.Ran || r.Tests["com.squareup.javapoet.ParameterSpecTest.parameterVariableElement"] != Failed {
		t.Errorf("ran %v, tests %v", r.Ran, r.Tests)
	}
}
