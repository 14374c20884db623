package ciconfig

import (
	"strings"
	"testing"
)

// A date library's compile-fail tests are CTest tests whose programs only
// the custom target "testit" makes; its CI builds it after the default
// build (cmake --build . --target testit). Options and a build folder are
// not targets.
func TestCMakeBuildTargets(t *testing.T) {
	travis := "language: cpp\nscript:\n  - cmake -DENABLE_TESTING=ON ..\n  - cmake --build . --parallel\n" +
		"  - cmake --build . --parallel --target testit\n  - cmake --build build --target=docs tools --config Release\n  - echo cmake --target notbuild\n"
	c := Read(tree(map[string]string{".travis.yml": travis}))
	var got []string
	for _, s := range c.Targets {
		got = append(got, s.Value)
	}
	if strings.Join(got, " ") != "testit docs tools" {
		t.Errorf("targets %v, want testit docs tools", got)
	}
	if len(c.Targets) > 0 && !strings.HasPrefix(c.Targets[0].Source, ".travis.yml") {
		t.Errorf("source %q", c.Targets[0].Source)
	}
}
