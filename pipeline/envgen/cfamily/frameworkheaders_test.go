package cfamily

import (
	"slices"
	"testing"

	"curate/pipeline/envgen"
)

// martinus/unordered_dense (held out, thirteenth set): its tests include
// <doctest.h>, which its Meson wrap puts on the include path; Debian's
// doctest-dev has it in /usr/include/doctest. A project that vendors
// doctest.h, or includes <doctest/doctest.h>, gets nothing.
func TestBareDoctestHeaderIsOnTheIncludePath(t *testing.T) {
	const want = "CPLUS_INCLUDE_PATH=/usr/include/doctest"
	for _, c := range []struct {
		name  string
		files map[string]string
		set   bool
	}{
		{"bare", map[string]string{"test/unit/swap.cpp": "#include <ankerl/unordered_dense.h>\n#include <doctest.h>\n"}, true},
		{"vendored", map[string]string{"test/unit/swap.cpp": "#include \"doctest.h\"\n", "test/third/doctest.h": ""}, false},
		{"namespaced", map[string]string{"test/unit/swap.cpp": "#include <doctest/doctest.h>\n"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.files["meson.build"] = "project('ud', 'cpp')\nsubdir('test')\n"
			c.files["test/meson.build"] = "test('udm', executable('udm', 'unit/swap.cpp'))\n"
			p, err := (lang{"cpp"}).Plan(envgen.MapTree("o/n", c.files), envgen.Tests{Files: []string{"test/unit/swap.cpp"}})
			if err != nil {
				t.Fatal(err)
			}
			if got := slices.Contains(p.Env, want); got != c.set {
				t.Errorf("%s in env: %v, want %v (%q)", want, got, c.set, p.Env)
			}
		})
	}
}
