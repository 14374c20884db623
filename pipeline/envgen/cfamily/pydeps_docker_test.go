package cfamily

import (
	"strings"
	"testing"

	"curate/pipeline/envgen"
)

// libical/libical (held out, fourteenth set; dev rerun): 14 CTest tests
// are Python scripts that `import gi`, which a CI machine has and the
// image did not ("ModuleNotFoundError: No module named 'gi'"). After the
// configure step curate-pydeps reads CTest's commands and installs
// python3-gi from Debian's Contents index; an import in a try: block, a
// module of the standard library and one beside the script are not looked
// up. Minutes: apt-file downloads the index.
func TestPydepsInstallsWhatTheTestScriptsImportInDocker(t *testing.T) {
	if testing.Short() {
		t.Skip("downloads Debian's Contents index")
	}
	out := runCbuild(t, map[string]string{
		"CMakeLists.txt": "cmake_minimum_required(VERSION 3.16)\nproject(widget C)\nenable_testing()\n" +
			"add_test(NAME glib-array COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/src/test/glib/array.py)\n",
		"src/test/glib/array.py":  "import os\nimport helper\nfrom gi.repository import GLib\ntry:\n    import curatenosuchmodule\nexcept ImportError:\n    pass\n",
		"src/test/glib/helper.py": "",
	}, "curate-cbuild configure cmake /tmp/b >/dev/null 2>&1 && curate-pydeps cmake /tmp/b 2>&1 | grep '^curate:'; python3 -c 'import gi' && echo 'gi imports'")
	wantAll(t, out, "the tests' Python scripts import gi, which python3 lacks", "py:gi is in Debian's python3-gi", "gi imports")
	for _, not := range []string{"helper", "curatenosuchmodule", " os"} {
		if strings.Contains(out, not) {
			t.Errorf("looked up %q:\n%s", not, out)
		}
	}
}

// The plan runs curate-pydeps between the configure and build steps only
// for a CMake or Meson project with a Python script in a test folder.
func TestPlanRunsPydepsAfterConfiguring(t *testing.T) {
	files := map[string]string{
		"CMakeLists.txt": "project(w C)\nenable_testing()\nadd_test(NAME t COMMAND t)\n", "w.c": "", "tests/t.c": "",
		"tools/gen.py": "import jinja2\n",
	}
	p, err := (lang{"c"}).Plan(envgen.MapTree("o/n", files), envgen.Tests{Files: []string{"tests/t.c"}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(strings.Join(p.Install, "\n"), "curate-pydeps") {
		t.Errorf("a script outside the tests is looked up: %q", p.Install)
	}
	files["tests/run.py"] = "import gi\n"
	if p, err = (lang{"c"}).Plan(envgen.MapTree("o/n", files), envgen.Tests{Files: []string{"tests/t.c"}}); err != nil {
		t.Fatal(err)
	}
	if len(p.Install) != 3 || p.Install[1] != "curate-pydeps cmake "+BuildDir || p.Tools["curate-pydeps"] == "" || p.Tools["curate-cdeps"] == "" {
		t.Errorf("install steps %q, want curate-pydeps between configure and build", p.Install)
	}
}
