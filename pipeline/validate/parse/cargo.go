package parse

import (
	"path"
	"regexp"
	"strings"
)

var (
	cargoLine = regexp.MustCompile(`^test (.+?) \.\.\. (ok|FAILED|ignored|failed)\b`)
	cargoRan  = regexp.MustCompile(`^running \d+ tests?$|^test result: `)
	// A test target that does not compile ran and failed: the PR's tests
	// call what the fix adds (`(test "test_buf")`, `(lib test)`).
	cargoTestBuild = regexp.MustCompile("^error: could not compile `[^`]+` \\((?:lib test|test \"[^\"]+\"|bin \"[^\"]+\" test)\\)")
	// "     Running tests/test_buf.rs (target/debug/deps/test_buf-0a1b2c)",
	// "     Running unittests src/lib.rs (target/debug/deps/bytes-0a1b)",
	// and before cargo 1.55 "     Running target/debug/deps/test_buf-0a1b2c".
	cargoRunning = regexp.MustCompile(`^\s*Running (?:unittests )?(\S+)(?: \((\S+)\))?\s*$`)
	cargoDoc     = regexp.MustCompile(`^\s*Doc-tests (\S+)\s*$`)
	cargoHash    = regexp.MustCompile(`-[0-9a-f]{8,}$`)
	// "  process didn't exit successfully: `/app/target/debug/deps/x-0a1b` (exit status: 101)"
	cargoExit = regexp.MustCompile("process didn't exit successfully: `([^` ]+)")
)

// Cargo reads `cargo test` output: "test mod::name ... ok". Each test
// binary has tests of its own, often with the same names (a workspace's
// crates, tests/*.rs files), so ids carry the target the "Running" line
// names: "tests/test_buf.rs::name", "src/lib.rs::mod::name". Doc tests
// name their file already ("src/buf.rs - Buf::get (line 10)").
//
// A target built with `harness = false` prints no test lines: its own
// main() is the test. Such a target (a "Running" line with no "running N
// tests" after it) is one test named by the target, failed when cargo
// says its process did not exit successfully.
func Cargo(log []byte) *Report {
	r := &Report{}
	target := ""
	var bare []cargoTarget      // harness-less targets
	var pending *cargoTarget    // the last Running target, until it shows test lines
	failed := map[string]bool{} // binaries that exited unsuccessfully, by base name
	flush := func() {
		if pending != nil {
			bare = append(bare, *pending)
		}
		pending = nil
	}
	lines(r, log, func(l string) {
		if cargoRan.MatchString(l) || cargoTestBuild.MatchString(l) {
			r.Ran = true
			pending = nil
		}
		if m := cargoExit.FindStringSubmatch(l); m != nil {
			failed[path.Base(m[1])] = true
		}
		if m := cargoRunning.FindStringSubmatch(l); m != nil {
			flush()
			target = m[1]
			if m[2] != "" { // only cargo's shape: Maven's "Running com.acme.FooTest" is not a target
				pending = &cargoTarget{id: m[1], bin: path.Base(m[2]), line: r.at}
			}
			if m[2] == "" { // old cargo: only the binary, name it without its hash
				target = cargoHash.ReplaceAllString(target[strings.LastIndex(target, "/")+1:], "")
			}
			return
		}
		if cargoDoc.MatchString(l) {
			flush()
			target = ""
			return
		}
		m := cargoLine.FindStringSubmatch(l)
		if m == nil {
			return
		}
		pending = nil
		id := strings.TrimSuffix(m[1], " - should panic")
		if target != "" {
			id = target + "::" + id
		}
		switch m[2] {
		case "ok":
			r.set(id, Passed)
		case "ignored":
			r.set(id, Skipped)
		default:
			r.set(id, Failed)
		}
	})
	flush()
	for _, b := range bare {
		r.Ran = true
		r.at = b.line
		if failed[b.bin] {
			r.set(b.id, Failed)
		} else {
			r.set(b.id, Passed)
		}
	}
	r.at = 0
	return r
}

// cargoTarget is a test target cargo ran, by the source path its
// Running line names, its binary's base name and that line.
type cargoTarget struct {
	id, bin string
	line    int
}
