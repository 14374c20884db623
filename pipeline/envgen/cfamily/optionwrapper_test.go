package cfamily

import (
	"reflect"
	"testing"

	"curate/pipeline/envgen"
)

// libical/libical (held out, fourteenth set): its test switch is declared
// through a function of its own, libical_option(LIBICAL_BUILD_TESTING
// "Build tests." False), defined in a module under cmake/; the switch was
// never turned on and the dev rerun built no test (nop_not_run). A
// function that does not declare its first parameter as an option (one
// that only reads it) declares nothing.
func TestATestSwitchDeclaredThroughAWrapperIsTurnedOn(t *testing.T) {
	tree := envgen.MapTree("o/n", map[string]string{
		"CMakeLists.txt": "project(libcal C)\ninclude(LibCalMacros)\n" +
			"libcal_option(LIBCAL_BUILD_TESTING \"Build tests.\" False)\n" +
			"libcal_option(LIBCAL_BUILD_TESTING_BIGFUZZ \"Fuzz\" False)\n" +
			"report_flag(LIBCAL_EXTRA_TESTS)\n",
		"cmake/modules/LibCalMacros.cmake": "# Wraps option().\nfunction(libcal_option option description)\n" +
			"  set(extra ${ARGN})\n  option(${option} \"${description}\" ${extra})\n  add_feature_info(\"Option ${option}\" ${option} \"${description}\")\nendfunction()\n" +
			"macro(report_flag flag)\n  message(STATUS \"${flag}: ${${flag}}\")\nendmacro()\n",
	})
	if got, want := optionWrappers(tree), []string{"libcal_option"}; !reflect.DeepEqual(got, want) {
		t.Errorf("wrappers %v, want %v", got, want)
	}
	if got, want := testOptions(tree, ""), []string{"LIBCAL_BUILD_TESTING"}; !reflect.DeepEqual(got, want) {
		t.Errorf("test switches %v, want %v", got, want)
	}
}
