package cfamily

import (
	"reflect"
	"testing"

	"curate/pipeline/envgen"
)

// A serialization library's test CMakeLists asked for
// find_package(Boost REQUIRED COMPONENTS serialization); libboost-dev
// alone has no boost_serialization config, so the configure failed.
func TestBoostComponentsAreTheirOwnPackages(t *testing.T) {
	tree := envgen.MapTree("acme/archive", map[string]string{
		"CMakeLists.txt":             "find_package(Boost 1.60 REQUIRED COMPONENTS serialization unit_test_framework)\n",
		"unittests/CMakeLists.txt":   "find_package( Boost REQUIRED filesystem system )\nfind_package(Boost COMPONENTS ${MORE} OPTIONAL_COMPONENTS python311)\n",
		"sandbox/CMakeLists.txt":     "find_package(Boost COMPONENTS frobnicate)\n",
		"third_party/CMakeLists.txt": "find_package(Boost REQUIRED COMPONENTS wave)\n",
	})
	pkgs, unknown := DebianPackages(Needs(tree))
	want := []string{"libboost-dev", "libboost-filesystem-dev", "libboost-python-dev", "libboost-serialization-dev", "libboost-system-dev", "libboost-test-dev"}
	if !reflect.DeepEqual(pkgs, want) {
		t.Errorf("packages %v, want %v", pkgs, want)
	}
	if !reflect.DeepEqual(unknown, []string{"boost:frobnicate (sandbox/CMakeLists.txt)"}) {
		t.Errorf("unknown %v", unknown)
	}
}
