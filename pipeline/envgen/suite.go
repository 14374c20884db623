package envgen

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"curate/pipeline/filter"
)

// SuiteDir writes dir/tests/test.sh running the repository's test suite
// at rev (every test file the filter knows, or only those of them in only
// when only is not nil, through the language's planner, or [repos]
// test_command), for the environment check of a repository image. It
// returns the log format of the runner and the test files it runs.
func SuiteDir(ctx context.Context, repo, clone, rev, dir string, only []string, cfg Config) (string, []string, error) {
	paths, err := lsTree(ctx, clone, rev)
	if err != nil {
		return "", nil, err
	}
	fc := cfg.Filter
	if fc == nil {
		fc = &filter.Config{}
	}
	var files, benchmarks []string
	for _, p := range paths {
		switch {
		case isBenchmark(p): // test-looking or not: pytest given a folder collects bench/test_*.py
			if b := benchmarkRoot(p); strings.HasSuffix(p, ".py") && !slices.Contains(benchmarks, b) {
				benchmarks = append(benchmarks, b)
			}
		case fc.Classify(p) == filter.KindTest && (only == nil || slices.Contains(only, p)):
			files = append(files, p)
		}
	}
	if only != nil && len(files) == 0 {
		return "", nil, fmt.Errorf("env check of %s: none of the %d test files the mined PRs change is at %s", repo, len(only), rev)
	}
	rc := cfg.Repos[repo]
	lang := rc.Language
	if lang == "" {
		lang = DetectLanguage(paths, "")
	}
	tr := NewTree(repo, "", paths, func(p string) ([]byte, error) { return show(ctx, clone, rev, p) }).
		WithGrep(func(re string) ([]string, error) { return gitGrep(ctx, clone, rev, re) })
	var run Runner
	if planner := LanguageFor(lang); planner != nil {
		var names []string
		for _, f := range files {
			if data, err := show(ctx, clone, rev, f); err == nil {
				names = append(names, planner.TestNames(f, string(data))...)
			}
		}
		plan, err := planner.Plan(tr, Tests{Files: files, Names: names})
		if err != nil {
			return "", nil, fmt.Errorf("env check of %s: %w", repo, err)
		}
		run = plan.Test
	} else if rc.TestCommand == "" {
		return "", nil, fmt.Errorf("env check of %s: no test runner for language %q: set [repos.%q] test_command", repo, lang, repo)
	}
	run = withOverride(run, rc.TestCommand, files)
	if rc.TestCommand == "" && run.LogFormat == "pytest" {
		// One file that does not collect (a plugin the suite does not
		// install) must not hide the rest of the suite's results.
		// The benchmarks are left out even when pytest is given a folder.
		// -v prints each result as it comes: a check stopped at its
		// budget still has the results so far.
		flags := "-v --continue-on-collection-errors"
		for _, b := range benchmarks {
			flags += " --ignore=" + ShellQuote(b)
		}
		run.Command = strings.Replace(run.Command, "python -m pytest ", "python -m pytest "+flags+" ", 1)
	}
	// The check's pass/total comes from the runner's report: a failing
	// suite still "passes" the script, so the log is always complete.
	run.Check = ""
	tests := filepath.Join(dir, "tests")
	if err := os.MkdirAll(tests, 0o755); err != nil {
		return "", nil, err
	}
	script := TestSh("env-check "+repo, run, nil, nil, nil, nil)
	if err := os.WriteFile(filepath.Join(tests, "test.sh"), []byte(script), 0o755); err != nil {
		return "", nil, err
	}
	{
		if err := os.WriteFile(filepath.Join(dir, CTRFFile), CTRFScript, 0o644); err != nil {
			return "", nil, err
		}
	}
	return run.LogFormat, files, nil
}

// benchmarkRoot is the folder (or file) that makes p a benchmark.
func benchmarkRoot(p string) string {
	parts := strings.Split(p, "/")
	for i, part := range parts {
		if isBenchmark(part) {
			return strings.Join(parts[:i+1], "/")
		}
	}
	return p
}

// isBenchmark says whether a test-looking file is a benchmark (bench/,
// benchmarks/, test_benchmarks.py): suites keep them apart, often with
// plugins of their own (pytest-codspeed), so the env check leaves them out.
func isBenchmark(p string) bool {
	for _, part := range strings.Split(strings.ToLower(p), "/") {
		if part == "bench" || part == "benches" || part == "benchmark" || part == "benchmarks" || strings.Contains(part, "benchmark") {
			return true
		}
	}
	return false
}
