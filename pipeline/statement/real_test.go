package statement

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// sharedRepos finds the shared bundles folder beside the project (the
// project's parent, or one above when the project is a worktree).
func sharedRepos(t *testing.T) string {
	t.Helper()
	dir, _ := filepath.Abs(".")
	for d := dir; filepath.Dir(d) != d; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err != nil {
			continue
		}
		for up := filepath.Dir(d); filepath.Dir(up) != up; up = filepath.Dir(up) {
			if fi, err := os.Stat(filepath.Join(up, "shared", "repos")); err == nil && fi.IsDir() {
				return filepath.Join(up, "shared", "repos")
			}
		}
	}
	t.Skip("no ../shared/repos: real-repository tests need the bundles beside the project")
	return ""
}

// TestInterfaceOnRealPRs runs the extractor on one merged PR per language
// from the bundles: the fix's new public name that the PR's tests call
// must be listed with its signature from the fixed source.
func TestInterfaceOnRealPRs(t *testing.T) {
	repos := sharedRepos(t)
	cases := []struct {
		bundle, commit, lang, want string
	}{
		// cobra #2397 "Add cobra unique args validator".
		{"spf13+cobra", "ad460ea8f249db69c943a365fb84f3a59042d54e", "go", "func NoDuplicateArgs(cmd *Command, args []string) error"},
		// more-itertools #1166 "subfactorial".
		{"more-itertools+more-itertools", "504b087128d853d7b2cc6478237626e585514935", "python", "def subfactorial(n)"},
		// p-map #39 "Add pMapSkip".
		{"sindresorhus+p-map", "c9c088283e07280fb2c49ed4f83fd20cc0ad8b46", "javascript", "export const pMapSkip = Symbol('skip')"},
		// p-map #63 "Add pMapIterable export" (index.d.ts).
		{"sindresorhus+p-map", "5c59528def9611406f7ad000d5f20fd598716f58", "typescript", "export function pMapIterable<Element, NewElement>("},
		// bytes #643 "add Bytes::is_unique".
		{"tokio-rs+bytes", "0864aea9704ac12fa53ee96a7f968e51c9dabba1", "rust", "pub fn is_unique(&self) -> bool  // in Bytes"},
		// javapoet #687 "Public getter for canonical name of ClassName".
		{"square+javapoet", "30a8bdaa2224f224be04261b9fceea6cd7048cd5", "java", "public String canonicalName()  // in ClassName"},
		// javapoet #598 "Adds `$B` as an optional newline": the tests call
		// the package-private LineWrapper.zeroWidthSpace.
		{"square+javapoet", "ca0e12e93e8ef9e1666573e4dc635064cb8d3ab1", "java", "void zeroWidthSpace(int indentLevel)"},
		// cJSON #358 "Added cJSON_ParseWithLength".
		{"DaveGamble+cJSON", "983bb2b4d67124688d2116924f0b58c1b80acf88", "c", "CJSON_PUBLIC(cJSON *) cJSON_ParseWithLength(const char *value, size_t buffer_length)"},
		// yaml-cpp #1407 "Emitter has option to produce string with trailing '.0'".
		{"jbeder+yaml-cpp", "dc413bdb1699cddd5839df44adcc8f2725fd30a0", "cpp", "bool SetShowTrailingZero(bool value)  // in Emitter"},
	}
	for _, c := range cases {
		t.Run(c.lang, func(t *testing.T) {
			fix, tests, files := realPR(t, repos, c.bundle, c.commit)
			decls, used, err := Interface(fix, tests, files)
			if err != nil {
				t.Fatal(err)
			}
			var sigs []string
			for _, d := range decls {
				sigs = append(sigs, d.Signature)
				if strings.Contains(d.Signature, c.want) && d.Language != c.lang {
					t.Errorf("%s listed as %s, want %s", d.Name, d.Language, c.lang)
				}
			}
			if !strings.Contains(strings.Join(sigs, "\n"), c.want) {
				t.Errorf("interface lacks %q; got:\n%s", c.want, strings.Join(sigs, "\n"))
			}
			if len(used) == 0 {
				t.Error("no name the tests use")
			}
		})
	}
}

// realPR reads a merged commit of a bundle: its fix and test diffs and
// its trees.
func realPR(t *testing.T, repos, bundle, commit string) (fix, tests []unidiffFile, files Files) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), bundle)
	if out, err := exec.Command("git", "clone", "-q", "--no-checkout", filepath.Join(repos, bundle+".bundle"), dir).CombinedOutput(); err != nil {
		t.Fatalf("clone: %v\n%s", err, out)
	}
	diff, err := exec.Command("git", "-C", dir, "diff", "--no-renames", commit+"^1", commit).Output()
	if err != nil {
		t.Fatal(err)
	}
	fix, tests = splitTests(mustParse(t, string(diff)))
	show := func(rev string) func(string) ([]byte, error) {
		return func(p string) ([]byte, error) { return exec.Command("git", "-C", dir, "show", rev+":"+p).Output() }
	}
	return fix, tests, Files{Fixed: show(commit), Base: show(commit + "^1")}
}

func splitTests(files []unidiffFile) (fix, tests []unidiffFile) {
	for _, f := range files {
		if strings.Contains(strings.ToLower(f.Name()), "test") {
			tests = append(tests, f)
		} else {
			fix = append(fix, f)
		}
	}
	return fix, tests
}
