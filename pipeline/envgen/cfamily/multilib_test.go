package cfamily

import (
	"reflect"
	"testing"

	"curate/pipeline/envgen"
)

// A serialization library builds 32-bit copies of its tests when the
// compiler accepts -m32; without Debian's multilib headers each failed
// with "bits/c++config.h: No such file or directory".
func TestM32BuildInstallsMultilib(t *testing.T) {
	tree := envgen.MapTree("acme/archive", map[string]string{
		"CMakeLists.txt":           "set(CMAKE_REQUIRED_FLAGS \"-m32\")\ncheck_cxx_compiler_flag(\"-m32\" HAS_M32)\n",
		"unittests/CMakeLists.txt": "set_target_properties(t32 PROPERTIES COMPILE_FLAGS -m32 LINK_FLAGS -m32)\n",
	})
	if got := CIPackages(Needs(tree), nil); !reflect.DeepEqual(got, []string{"apt:g++-multilib"}) {
		t.Errorf("CI packages %v, want apt:g++-multilib", got)
	}
	plain := envgen.MapTree("acme/archive", map[string]string{"CMakeLists.txt": "add_compile_options(-m64 -mavx2)\n# -m32 once\n"})
	if got := CIPackages(Needs(plain), nil); len(got) != 0 {
		t.Errorf("no -m32 build, but %v", got)
	}
}
