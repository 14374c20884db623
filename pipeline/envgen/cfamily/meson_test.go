package cfamily

import (
	"reflect"
	"slices"
	"testing"

	"curate/pipeline/envgen"
)

// A Meson project whose tests sit behind an option (a TOML library's
// build_tests, false by default: "No tests defined.") gets the options
// that turn tests on, by the rules of CMake switches; one whose
// meson.build calls CMake (it failed to configure: "Program 'cmake' not
// found"), or that looks a package up with dependency(), gets cmake.
func TestMesonArgs(t *testing.T) {
	for _, c := range []struct {
		name  string
		files map[string]string
		want  []string
		cmake bool
	}{
		{"meson.options", map[string]string{
			"meson.options": "option('build_tests', type: 'boolean', value: false, description: 'tests')\n" +
				"option('unit-tests',\n  type : 'feature', value : 'disabled')\n" +
				"option('disable_tests', type: 'boolean', value: false)\n" +
				"option('test_with_valgrind', type: 'boolean', value: false)\n" +
				"option('generate_cmake_config', type: 'boolean', value: true)\n" +
				"# option('old_tests', type: 'boolean', value: false)\n",
			"meson.build":     "project('widget', 'cpp')\n",
			"src/meson.build": "cmake = import('cmake')\n",
		}, []string{"-Dbuild_tests=true", "-Dunit-tests=enabled"}, true},
		{"meson_options.txt", map[string]string{
			"meson_options.txt": "option('tests', type : 'boolean', value : false)\noption('docs', type : 'boolean', value : false)\n",
			"meson.build":       "project('widget', 'c')\n# find_program('cmake')\n",
		}, []string{"-Dtests=true"}, false},
		{"no options", map[string]string{"meson.build": "project('widget', 'c')\n"}, nil, false},
		// martinus/unordered_dense (held out, thirteenth set): Debian's
		// doctest-dev has a CMake config and no .pc file, and Meson asks
		// CMake only when it is installed.
		{"dependency()", map[string]string{"meson.build": "project('widget', 'cpp')\n",
			"test/meson.build": "dependency('threads')\ndependency(\n    'doctest', include_type: 'system')\n"}, nil, true},
		{"threads only", map[string]string{"meson.build": "project('widget', 'c')\ndependency('threads')\n"}, nil, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := &envgen.Plan{}
			var args []string
			mesonArgs(p, envgen.MapTree("o/n", c.files), "", &args)
			if !reflect.DeepEqual(args, c.want) {
				t.Errorf("args %q, want %q", args, c.want)
			}
			if got := slices.Contains(p.Packages, "cmake"); got != c.cmake {
				t.Errorf("cmake installed: %v, want %v", got, c.cmake)
			}
		})
	}
}
