package rust

import (
	"curate/pipeline/envgen"
	"path"
	"strings"
)

// featuresArg is cargo's --features argument for the features the PR's
// tests are gated on.
func featuresArg(features []string) string {
	return "--features " + envgen.ShellQuote(strings.Join(features, ","))
}

// featuresWarm compiles the test targets again with the features
// test.sh passes, after the plain compile: compiled only without them,
// every run rebuilt the dependencies those features turn on. The plain
// compile stays first and unchanged: a repository image is planned from
// its environment check's tests and shared by tasks whose runs pass no
// features (or others), which its artifacts serve. A featured compile
// that fails (a feature the repository does not have at the image's
// revision) does not fail the image; the runs compile what it would have.
// "" without features.
func featuresWarm(compile string, features []string) string {
	if len(features) == 0 {
		return ""
	}
	warm := compile + " " + featuresArg(features)
	return warm + " >/tmp/curate-warm.log 2>&1 && echo " + envgen.ShellQuote("curate: warmed: "+warm+" (the tests' features)") +
		" || { tail -n 20 /tmp/curate-warm.log; echo " + envgen.ShellQuote("curate: note: the warm-up with the tests' features failed ("+warm+"): the runs compile that build") + "; }; rm -f /tmp/curate-warm.log"
}

// trybuildWarm runs, at image build, the test targets of the run that
// drive trybuild: trybuild compiles a scratch crate of its own (the
// crate with its dev-dependencies, under target/tests/trybuild) only
// while its test runs, so the image's `cargo test --no-run` left it cold
// and every run compiled all those crates again. args are the run's
// cargo test arguments (packages, targets, features). Their results are
// not kept; a failure does not fail the image, and trybuild's wip/
// folders it leaves are removed. "" when no such target would run.
func trybuildWarm(tree *envgen.Tree, args []string) string {
	var targets, dirs []string
	seen := map[string]bool{}
	for _, f := range tree.Grep(`trybuild::`, ".rs") {
		dir, _, ok := rustTestCrate(tree, f)
		if !ok {
			continue
		}
		name := testTargetName(strings.TrimPrefix(f, dir))
		if name == "" || !runsTarget(args, name) || seen[dir+"\x00"+name] {
			continue
		}
		seen[dir+"\x00"+name] = true
		targets = append(targets, "--test "+envgen.ShellQuote(name))
		if !seen[dir] {
			seen[dir] = true
			dirs = append(dirs, envgen.ShellQuote(dir+"wip"))
		}
	}
	if len(targets) == 0 {
		return ""
	}
	var keep []string
	for _, a := range args {
		if strings.HasPrefix(a, "-p ") || strings.HasPrefix(a, "--features ") {
			keep = append(keep, a)
		}
	}
	cmd := strings.Join(append(append([]string{"cargo test --offline --no-fail-fast"}, keep...), targets...), " ")
	return "wip=; for d in " + strings.Join(dirs, " ") + `; do [ -e "$d" ] || wip="$wip $d"; done; ` +
		"CARGO_NET_OFFLINE=true timeout 1200 " + cmd + " >/tmp/curate-warm.log 2>&1; st=$?; " +
		`echo "curate: warmed: trybuild's scratch build (` + strings.ReplaceAll(cmd, `"`, `\"`) + `: exit $st, $(grep -c '^ *Compiling' /tmp/curate-warm.log) crates compiled)"; ` +
		"rm -rf $wip /tmp/curate-warm.log; true"
}

// testTargetName is the integration test target a file under a crate's
// folder is (tests/NAME.rs, or tests/NAME/main.rs or mod.rs), "" for any
// other.
func testTargetName(rel string) string {
	switch {
	case strings.HasPrefix(rel, "tests/") && strings.Count(rel, "/") == 1:
		return strings.TrimSuffix(path.Base(rel), ".rs")
	case strings.HasPrefix(rel, "tests/") && strings.Count(rel, "/") == 2 && (path.Base(rel) == "main.rs" || path.Base(rel) == "mod.rs"):
		return path.Base(path.Dir(rel))
	}
	return ""
}

// runsTarget reports whether cargo test with args runs the integration
// test target name: named by --test, all of them by --tests, or no
// target selected at all.
func runsTarget(args []string, name string) bool {
	selected := false
	for _, a := range args {
		switch {
		case a == "--test "+envgen.ShellQuote(name) || a == "--tests":
			return true
		case a == "--lib" || a == "--bins" || strings.HasPrefix(a, "--test "):
			selected = true
		}
	}
	return !selected
}
