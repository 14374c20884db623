package validate

import (
	"path"
	"strings"

	"curate/pipeline/statement"
)

// TestMayLiveIn reports whether the test id (as the suite's report names
// it) may live in file: the id holds the file's path, or its name without
// the extension as a whole word (a CTest target, a Java class, a Rust
// module, a Unity test file), also with case, '_' and '-' ignored
// (GoogleTest's FooTest in foo_test.cc); a Go id's package is the file's
// directory. Unsure means yes: callers keep what they did before they
// could tell.
func TestMayLiveIn(file, id, repo string) bool {
	if strings.Contains(id, file) {
		return true
	}
	if strings.HasSuffix(file, "_test.go") {
		pkg := goPackageOf(id)
		dir := path.Dir(file)
		if dir == "." {
			return path.Base(pkg) == path.Base(repo)
		}
		return pkg == dir || strings.HasSuffix(pkg, "/"+dir)
	}
	stem := strings.TrimSuffix(path.Base(file), path.Ext(file))
	stem = strings.TrimSuffix(stem, ".test") // foo.test.ts
	return stem != "" && (statement.ContainsWord(id, stem) || statement.ContainsWord(squash(id), squash(stem)))
}

// squash lowercases s and drops '_' and '-'.
func squash(s string) string {
	return strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(s))
}

// goPackageOf is the package part of a Go test id ("mod/pkg.TestX/sub").
func goPackageOf(id string) string {
	for _, kind := range []string{".Test", ".Example", ".Fuzz", ".Benchmark"} {
		if i := strings.Index(id, kind); i > 0 {
			return id[:i]
		}
	}
	return id
}
