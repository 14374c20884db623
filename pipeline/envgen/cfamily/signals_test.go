package cfamily

import (
	"slices"
	"strings"
	"testing"

	"curate/pipeline/envgen"
)

// The signal-stack lines of the vendored headers met on real trees: a
// filesystem library's test/catch.hpp at Catch v2.4.0 and v1.10.0 did not
// compile on Debian 12 ("size of array 'altStackMem' is not an integral
// constant-expression"), so its PR 103 was fix_fails_tests; v2.13.7 and
// doctest 2.4.6+ size the stack at run time and compile.
func TestPlanTurnsOffSignalsOfOldVendoredTestHeaders(t *testing.T) {
	cases := []struct {
		name, file, text, want string
	}{
		{"catch 2.4", "test/catch.hpp", "    constexpr static std::size_t sigStackSize = 32768 >= MINSIGSTKSZ ? 32768 : MINSIGSTKSZ;\n", "CXXFLAGS=-DCATCH_CONFIG_NO_POSIX_SIGNALS"},
		{"catch 1.10", "third_party/Catch.hpp", "        static char altStackMem[SIGSTKSZ];\n", "CXXFLAGS=-DCATCH_CONFIG_NO_POSIX_SIGNALS"},
		{"doctest 2.3", "test/doctest.h", "        static char             altStackMem[4 * SIGSTKSZ];\n", "CXXFLAGS=-DDOCTEST_CONFIG_NO_POSIX_SIGNALS"},
		{"catch 2.13.7", "test/catch.hpp", "            altStackSize = std::max(static_cast<size_t>(SIGSTKSZ), minStackSizeForErrors);\n", ""},
		{"not a framework", "src/stack.h", "static char altStackMem[SIGSTKSZ];\n", ""},
	}
	for _, c := range cases {
		tree := envgen.MapTree("o/n", map[string]string{
			"CMakeLists.txt": "cmake_minimum_required(VERSION 3.5)\nenable_testing()\n",
			"src/a.cpp":      "", "test/t.cpp": "", c.file: c.text,
		})
		p, err := (lang{"cpp"}).Plan(tree, envgen.Tests{Files: []string{"test/t.cpp"}})
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(p.Env, func(e string) bool { return strings.HasPrefix(e, "CXXFLAGS=") })
		switch {
		case c.want == "" && i >= 0:
			t.Errorf("%s: env %q, want no CXXFLAGS", c.name, p.Env[i])
		case c.want != "" && (i < 0 || p.Env[i] != c.want):
			t.Errorf("%s: env %q, want %s", c.name, p.Env, c.want)
		case c.want != "" && !strings.Contains(strings.Join(p.Notes, "\n"), c.file):
			t.Errorf("%s: no note names %s: %q", c.name, c.file, p.Notes)
		}
	}
}
