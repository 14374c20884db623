package validate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"curate/pipeline"
)

// TestEvidenceIsTheToolsLine reads captured build logs. The Rust one is
// cargo 1.85's real output for a crate without Cargo.lock depending on
// home = "0.5" (home 0.5.12 needs rustc 1.88; captured 2026-11-26 in
// curate/base:bookworm with bookworm's rustc-web 1.85, the issue's
// failure), inside the classic builder's lines for the step: curate-step
// then guessed deps_missing, and the run's evidence was the quoted RUN
// command. The evidence is cargo's own error line now, and the class
// toolchain_mismatch with a suggestion that works as printed.
func TestEvidenceIsTheToolsLine(t *testing.T) {
	log, err := os.ReadFile(filepath.Join("testdata", "classify", "rust-home-rustc-1.85.log"))
	if err != nil {
		t.Fatal(err)
	}
	run := &pipeline.Run{Mode: ModeNop, Outcome: pipeline.OutcomeBuildFailed,
		Detail: "build environment image: Step 22/27 : RUN curate-step \"crates.io\" 's/.../p' cargo test --no-run: The command '/bin/sh -c curate-step ...' returned a non-zero code: 101"}
	f := DefaultClassifier().Classify(ClassifyInput{Run: run, Language: "rust", Repo: "o/n", Log: log})
	if f == nil || f.Class != pipeline.ClassToolchainMismatch || f.Evidence != "error: rustc 1.85.0 is not supported by the following package:" ||
		!strings.Contains(f.Suggestion, "home@0.5.12 needs rustc 1.88") || !strings.HasPrefix(f.Suggestion, `[repos."o/n"] install = ["cargo update"`) {
		t.Errorf("got %+v", f)
	}
	// Without the rule that reads cargo's package line, curate-step's own
	// line classes it, and the evidence is still cargo's error line.
	own := strings.ReplaceAll(string(log), "home@0.5.12 requires rustc 1.88", "")
	own = strings.ReplaceAll(own, "error: rustc 1.85.0 is not supported by the following package:", "error: rustc 1.85.0 is not supported")
	f = DefaultClassifier().Classify(ClassifyInput{Run: run, Language: "rust", Repo: "o/n", Log: []byte(own)})
	if f == nil || f.Class != pipeline.ClassDepsMissing || f.Evidence != "error: rustc 1.85.0 is not supported" {
		t.Errorf("curate's own line: got %+v, want cargo's error line as evidence", f)
	}
	// No rule at all: the failing step's first error line, never the
	// builder's "The command '/bin/sh -c curate-step ...'" line.
	bare := "Step 3/9 : RUN curate-step \"x\" 's/a/b/p' make\n ---> Running in 1\nmake: *** No rule to make target 'all'.  Stop.\ngcc: fatal error: no input files\n" +
		"The command '/bin/sh -c curate-step \"x\" 's/a/b/p' make' returned a non-zero code: 2\n"
	f = DefaultClassifier().Classify(ClassifyInput{Run: run, Language: "c", Repo: "o/n", Log: []byte(bare)})
	if f == nil || strings.Contains(f.Evidence, "curate-step") || strings.Contains(f.Evidence, "The command") {
		t.Errorf("unclassified: got %+v, want an output line as evidence", f)
	}
}

func TestToolErrorLines(t *testing.T) {
	for _, l := range []string{
		"error[E0599]: no method named `foo` found for struct `Bar` in the current scope",
		"error: failed to load manifest for workspace member `/app/fuzz`",
		"command_test.go:12:3: undefined: flag.FlagSet.BoolFunc",
		"go: github.com/spf13/viper@v1.21.0 requires go >= 1.23.0 (running go 1.22.12; GOTOOLCHAIN=local)",
		"[ERROR] Rule 0: org.apache.maven.enforcer.rules.version.RequireMavenVersion failed with message:",
		"[ERROR] /app/src/test/java/com/squareup/javapoet/MethodSpecTest.java:[184,29] error: ';' expected",
		"npm ERR! code E404",
		"ERROR: Could not find a version that satisfies the requirement nosuch==9",
		"src/a.c:3:10: fatal error: zlib.h: No such file or directory",
		"src/index.ts(3,1): error TS2304: Cannot find name 'x'.",
	} {
		if !toolErrorRe.MatchString(l) {
			t.Errorf("not taken for a tool's error line: %q", l)
		}
	}
	for _, l := range []string{"[ERROR] COMPILATION ERROR : ", "[ERROR] ", "The command '/bin/sh -c x' returned a non-zero code: 1", "warning: unused import"} {
		if toolErrorRe.MatchString(l) && !isBuilderLine(l) {
			t.Errorf("taken for a tool's error line: %q", l)
		}
	}
}

// An environment check whose image did not build: Debian's Maven 3.8.7
// under a project whose parent POM (from Maven Central) has
// maven-enforcer-plugin requireMavenVersion [3.9,) (apache/commons-lang at
// its 2025 head, d15939ef; project names replaced). The check's error was
// the builder's whole RUN line with its test list; it is the class and
// Maven's own line.
func TestBuildFailureLineIsTheToolsLine(t *testing.T) {
	log, err := os.ReadFile(filepath.Join("testdata", "classify", "maven-enforcer-parent.log"))
	if err != nil {
		t.Fatal(err)
	}
	want := "toolchain_mismatch: [ERROR] Detected Maven Version: 3.8.7 is not in the allowed range [3.9,)."
	if got := BuildFailureLine(nil, "java", "o/r", log, "none"); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	// Output no rule explains: the tool's first error line of the step.
	plain := []byte("Step 3/4 : RUN make -j2 all\n ---> Running in 1\ncc -c a.c\na.c:3:1: error: expected ';' before '}' token\nmake: *** [a.o] Error 1\nThe command '/bin/sh -c make -j2 all' returned a non-zero code: 2\n")
	if got := BuildFailureLine(nil, "c", "o/r", plain, "none"); got != "a.c:3:1: error: expected ';' before '}' token" {
		t.Errorf("plain build: got %q", got)
	}
}
