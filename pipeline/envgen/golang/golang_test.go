package golang

import (
	"curate/pipeline/envgen"
	"curate/pipeline/envgen/envgentest"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestGoToolchainFromGoMod(t *testing.T) {
	for _, c := range []struct{ mod, want string }{
		{"module a\n\ngo 1.15\n", DefaultGo},
		{"module a\n\ngo 1.23\n", "1.23.0"},
		{"module a\n\ngo 1.21.5\n\ntoolchain go1.23.4\n", "1.23.4"},
		{"module a\n\ngo 1.24rc1\n", "1.24rc1"},
		{"module a\n\ngo 1.24\n\ntoolchain go1.23.1\n", "1.24.0"},
		{"module a\n\ngo banana\n", DefaultGo},
		{"", DefaultGo},
	} {
		if got, why := goToolchain(parseGoMod(c.mod)); got != c.want || why == "" {
			t.Errorf("go.mod %q: Go %s (%s), want %s", c.mod, got, why, c.want)
		}
	}
	if !goLess("1.22.12", "1.23.0") || goLess("1.23.0", "1.22.12") || !goLess("1.23rc1", "1.23.0") {
		t.Error("goLess")
	}
}

// go.work's go line binds every module of the workspace: go refuses to
// run an older Go ("go: go.work requires go >= 1.24.4 (running go 1.23.0;
// GOTOOLCHAIN=local)", every PR of a multi-module library whose go.mod
// files said 1.23 was toolchain_mismatch).
func TestGoToolchainFromGoWork(t *testing.T) {
	p := planGo(t, map[string]string{
		"go.mod":  "module example.com/lib\n\ngo 1.23.0\n",
		"go.work": "go 1.24.4\n\nuse (\n\t.\n\t./providers/file\n)\n",
		"lib.go":  "package lib\n",
	}, envgen.Tests{Files: []string{"lib_test.go"}})
	if p.Toolchain.Version != "1.24.4" || len(p.Decisions) != 1 || p.Decisions[0].Source != "go.work go 1.24.4" {
		t.Errorf("toolchain %+v, decisions %+v", p.Toolchain, p.Decisions)
	}
}

func planGo(t *testing.T, files map[string]string, tests envgen.Tests) *envgen.Plan {
	t.Helper()
	p, err := envgen.LanguageFor("go").Plan(envgen.MapTree("o/n", files), tests)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestGoPlanModules(t *testing.T) {
	p := planGo(t, map[string]string{"go.mod": "module github.com/o/n\n\ngo 1.25\n", "go.sum": "x", "a.go": "package n\nimport \"net\"\n"},
		envgen.Tests{Files: []string{"a_test.go", "pkg/x/y_test.go", "pkg/z/testdata/golden.txt"}, Names: []string{"TestA", "TestB"}})
	if !reflect.DeepEqual(p.Manifests, []string{"go.mod", "go.sum"}) || len(p.DepSteps) != 1 || !strings.Contains(p.DepSteps[0], "go mod download") {
		t.Errorf("manifests %v dep steps %v", p.Manifests, p.DepSteps)
	}
	if p.Toolchain.Version != "1.25.0" || !strings.Contains(p.ToolchainSteps[0], "golang.org/toolchain@v0.0.1-go1.25.0.") {
		t.Errorf("toolchain %+v steps %v", p.Toolchain, p.ToolchainSteps)
	}
	if !envgentest.HasEnv(p, "CGO_ENABLED=0") || !envgentest.HasEnv(p, "GOTOOLCHAIN=local") {
		t.Errorf("env %v", p.Env)
	}
	want := "GOPROXY=off GOSUMDB=off go test -json -vet=off -count=1 -run '^(TestA|TestB)$' '.' './pkg/x' './pkg/z' "
	if !strings.HasPrefix(p.Test.Command, want) || p.Test.LogFormat != "go" {
		t.Errorf("test command %q", p.Test.Command)
	}
	if len(p.AfterBug) != 2 || !strings.Contains(p.AfterBug[1], "-exec /bin/true ./...") {
		t.Errorf("after-bug steps %v", p.AfterBug)
	}
}

func TestGoPlanCgoVendorAndGopath(t *testing.T) {
	cgo := planGo(t, map[string]string{"go.mod": "module m\n\ngo 1.20\n", "c/c.go": "package c\n\nimport \"C\"\n"}, envgen.Tests{Files: []string{"c/c_test.go"}})
	if !envgentest.HasEnv(cgo, "CGO_ENABLED=1") || !strings.Contains(strings.Join(cgo.Packages, " "), "gcc") {
		t.Errorf("cgo package: env %v packages %v", cgo.Env, cgo.Packages)
	}
	fallback := planGo(t, map[string]string{"go.mod": "module m\n\ngo 1.20\n", "c/c.go": "//go:build cgo\n\npackage c\n\nimport (\n\t\"C\"\n)\n"}, envgen.Tests{Files: []string{"c/c_test.go"}})
	if !envgentest.HasEnv(fallback, "CGO_ENABLED=0") {
		t.Errorf("cgo with a build tag has a pure-Go fallback: env %v", fallback.Env)
	}
	vendored := planGo(t, map[string]string{"go.mod": "module m\n\ngo 1.20\n", "vendor/modules.txt": "# example.com/x v1.0.0\n## explicit\nexample.com/x\n"}, envgen.Tests{Files: []string{"a_test.go"}})
	if !envgentest.HasEnv(vendored, "GOFLAGS=-buildvcs=false -mod=vendor") || len(vendored.DepSteps) != 0 {
		t.Errorf("vendored: env %v deps %v", vendored.Env, vendored.DepSteps)
	}
	// A vendor/modules.txt of Go 1.11-1.13 (no "## explicit"): Go 1.14+
	// stops with "inconsistent vendoring" (the web framework's
	// 2019 revisions never ran their suite), so vendor/ is ignored.
	old := planGo(t, map[string]string{"go.mod": "module m\n\ngo 1.12\n", "vendor/modules.txt": "# example.com/x v1.0.0\nexample.com/x\n"}, envgen.Tests{Files: []string{"a_test.go"}})
	if !envgentest.HasEnv(old, "GOFLAGS=-buildvcs=false -mod=mod") || len(old.DepSteps) != 1 {
		t.Errorf("old vendor/: env %v deps %v", old.Env, old.DepSteps)
	}
	local := planGo(t, map[string]string{"go.mod": "module m\n\ngo 1.20\n\nreplace (\n\texample.com/x => ./x\n)\n"}, envgen.Tests{Files: []string{"a_test.go"}})
	if len(local.DepSteps) != 0 || len(local.Install) != 2 || !strings.Contains(local.Install[0], "go mod download") {
		t.Errorf("local replace: deps %v install %v", local.DepSteps, local.Install)
	}
	for origin, want := range map[string]string{
		"https://github.com/spf13/cobra.git": "github.com/spf13/cobra",
		"git@github.com:spf13/cobra.git":     "github.com/spf13/cobra",
		"":                                   "github.com/o/n",
	} {
		tree := envgen.MapTree("o/n", map[string]string{"cobra.go": "package cobra\n"})
		tree.Origin = origin
		p, err := envgen.LanguageFor("go").Plan(tree, envgen.Tests{Files: []string{"cobra_test.go"}})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Install) == 0 || !strings.Contains(p.Install[0], "gopath-deps.sh '' '"+want+"'") {
			t.Errorf("origin %q: install %v, want module %s", origin, p.Install, want)
		}
	}
}

// TestGoPlanGopathEra is TaskGen's cobra PR #218 (merged 2016, no
// go.mod): go mod tidy took today's viper, which "requires go >= 1.23.0"
// against the image's Go 1.22.12. The plan resolves as of the revision's
// date through the dated proxy; cobra's 7e2436b (2018) carried dep's
// Gopkg.lock, whose pins go first.
func TestGoPlanGopathEra(t *testing.T) {
	lock, err := os.ReadFile("testdata/cobra-7e2436b-Gopkg.lock")
	if err != nil {
		t.Fatal(err)
	}
	tree := envgen.MapTree("spf13/cobra", map[string]string{"cobra.go": "package cobra\n", "Gopkg.lock": string(lock), "vendor/github.com/x/y/y.go": "package y\n"})
	tree.Date = time.Date(2018, 2, 24, 16, 53, 13, 0, time.UTC)
	p, err := envgen.LanguageFor("go").Plan(tree, envgen.Tests{Files: []string{"cobra_test.go"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Install) != 1 || !strings.Contains(p.Install[0], "gopath-deps.sh '2018-02-24T16:53:13Z' 'github.com/spf13/cobra'") {
		t.Errorf("install %v: want the dated resolution", p.Install)
	}
	pins := p.Files["go-pins.txt"]
	for _, want := range []string{"github.com/cpuguy83/go-md2man v1.0.8 20f5889cbdc3c73dbd2862796665e7c465ade7d1\n", "github.com/hashicorp/hcl 23c074d0eceb2b8a5bfdbb271ab780cde70f05a8\n", "github.com/inconshreveable/mousetrap 76626ae9c91c4f2a10f34cad8ce83ea42c93bb75\n"} {
		if !strings.Contains(pins, want) {
			t.Errorf("pins lack %q:\n%s", want, pins)
		}
	}
	if p.Files["datedproxy.go"] == "" || !strings.Contains(p.Files["gopath-deps.sh"], "go mod tidy -e") {
		t.Errorf("helpers missing: %v", p.Files)
	}
	if !envgentest.HasEnv(p, "GOFLAGS=-buildvcs=false -mod=mod") {
		t.Errorf("a GOPATH vendor/ must be ignored (-mod=mod): env %v", p.Env)
	}
}

func TestLegacyPinFormats(t *testing.T) {
	for name, c := range map[string]struct{ file, text, want string }{
		"glide":     {"glide.lock", "hash: x\nimports:\n- name: github.com/spf13/pflag\n  version: 5ccb023bc27df288a957c5e994cd44fd19619465\n- name: gopkg.in/yaml.v2\n  version: a83829b6f1293c91addabc89d0571c246397bbf4\n", "github.com/spf13/pflag 5ccb023bc27df288a957c5e994cd44fd19619465|gopkg.in/yaml.v2 a83829b6f1293c91addabc89d0571c246397bbf4"},
		"govendor":  {"vendor/vendor.json", `{"package":[{"path":"github.com/a/b/c","revision":"abc123"},{"path":"github.com/a/b/c","revision":"abc123"},{"path":"bad path","revision":"x"}]}`, "github.com/a/b/c abc123"},
		"godep tag": {"Godeps/Godeps.json", `{"Deps":[{"ImportPath":"github.com/a/b","Comment":"v1.2.0","Rev":"f2499483f923065a842d38eb4c7f1927e6fc6e6d"}]}`, "github.com/a/b v1.2.0 f2499483f923065a842d38eb4c7f1927e6fc6e6d"},
		"godep":     {"Godeps/Godeps.json", `{"ImportPath":"x","Deps":[{"ImportPath":"golang.org/x/net/context","Rev":"f2499483f923065a842d38eb4c7f1927e6fc6e6d"}]}`, "golang.org/x/net/context f2499483f923065a842d38eb4c7f1927e6fc6e6d"},
		"garbage":   {"Gopkg.lock", "[[projects\nname=", ""},
	} {
		var got []string
		for _, p := range legacyPins(c.file, c.text) {
			got = append(got, p.path+" "+strings.Join(p.versions, " "))
		}
		if strings.Join(got, "|") != c.want {
			t.Errorf("%s: got %q, want %q", name, strings.Join(got, "|"), c.want)
		}
	}
}

func FuzzLegacyPins(f *testing.F) {
	lock, _ := os.ReadFile("testdata/cobra-7e2436b-Gopkg.lock")
	f.Add("Gopkg.lock", string(lock))
	f.Add("glide.lock", "imports:\n- name: a.io/b\n  version: v1\n")
	f.Add("vendor/vendor.json", `{"package":[{"path":"a.io/b","revision":"r"}]}`)
	f.Add("Godeps/Godeps.json", `{"Deps":[{"ImportPath":"a.io/b","Rev":"r"}]}`)
	f.Fuzz(func(t *testing.T, name, text string) {
		for _, p := range legacyPins(name, text) {
			// Pins reach a shell loop as "path rev" lines: no blanks, no newlines.
			for _, v := range p.versions {
				if strings.ContainsAny(p.path+v, " \t\n\r'\"$`\\") || p.path == "" || v == "" {
					t.Fatalf("unsafe pin %q %q", p.path, v)
				}
			}
			if len(p.versions) == 0 {
				t.Fatalf("pin %q without a version", p.path)
			}
		}
	})
}

// TestLegacyPinsResolveWithoutCommitLookup is the web framework's PR #987
// (merge c4249f92, 2017-07-08, vendor/vendor.json): every pin was a bare
// commit hash, which the module proxy here refuses ("reading
// .../go-isatty/@v/57fdcb988a5c....info: 403 Forbidden ... not available"),
// so the date decided and picked go-isatty v0.0.0-20161123143637-30a891c33c7c,
// which lacks IsCygwinTerminal: "undefined: isatty.IsCygwinTerminal". The
// file's revisionTime gives the commit's pseudo-version, which the proxy
// serves, and its comment the release tag.
func TestLegacyPinsResolveWithoutCommitLookup(t *testing.T) {
	data, err := os.ReadFile("testdata/webframework-c4249f9-vendor.json")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, p := range legacyPins("vendor/vendor.json", string(data)) {
		got[p.path] = strings.Join(p.versions, " ")
	}
	for path, want := range map[string]string{
		"github.com/mattn/go-isatty":          "v0.0.0-20170307163044-57fdcb988a5c 57fdcb988a5c543893cc61bce354a6e24ab70022",
		"github.com/davecgh/go-spew/spew":     "v1.1.0 v0.0.0-20161029205726-346938d642f2 346938d642f2ec3594ed81d874461961cd0faa76",
		"gopkg.in/yaml.v2":                    "v2.0.0-20160928153709-a5b47d31c556 a5b47d31c556af34a302ce5d659e6fea44d90de0",
		"gopkg.in/go-playground/validator.v8": "v8.18.1 v8.0.0-20160718134125-5f57d2222ad7 5f57d2222ad794d0dffb07e664ea05e2ee07d60c",
	} {
		if got[path] != want {
			t.Errorf("%s: versions %q, want %q", path, got[path], want)
		}
	}
}

// TestUndefinedHelper is the web framework's PR #2749 (squash 417b1427,
// 2022-03-18): its branch's routes_test.go calls performRequest, which the
// mainline had renamed PerformRequest (#3012) before the squash, so the
// merge commit fails in both states with "undefined: performRequest".
func TestUndefinedHelper(t *testing.T) {
	tree := envgen.MapTree("o/n", map[string]string{
		"routes.go":          "package gin\n\nfunc New() int { return 1 }\n",
		"helpers_test.go":    "package gin\n\nimport \"net/http\"\n\nfunc PerformRequest(r http.Handler) int { return 0 }\n",
		"routes_test.go":     "package gin\n\nimport (\n\t\"net/http\"\n\t\"testing\"\n\n\tassert \"github.com/stretchr/testify/assert\"\n)\n\nfunc TestStatic(t *testing.T) {\n\tw := performRequest(nil)\n\tassert.Equal(t, w, PerformRequest(nil))\n\t_ = http.MethodGet\n\t_ = New()\n\tvar x error = nil\n\t_ = x\n\t_ = len(\"\")\n}\n",
		"other/a_test.go":    "package other\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) { helper(t) }\n",
		"other/b_test.go":    "package other\n\nimport \"testing\"\n\nfunc helper(t *testing.T) {}\n",
		"broken/x_test.go":   "package broken\n\nfunc (\n",
		"dotted/d_test.go":   "package dotted\n\nimport . \"strings\"\n\nvar _ = ToUpper(\"a\")\n",
		"external/e_test.go": "package external_test\n\nimport \"testing\"\n\nfunc TestE(t *testing.T) { missingHere() }\n",
	})
	got := golang{}.UndefinedInTests(tree, []string{"routes_test.go", "other/a_test.go", "broken/x_test.go", "dotted/d_test.go", "external/e_test.go", "routes.go"})
	want := map[string][]string{"routes_test.go": {"performRequest"}, "external/e_test.go": {"missingHere"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("undefined names %v, want %v", got, want)
	}
}

// TestOwnImportPath: the web framework's 2018 revision 783c7ee9 (no
// go.mod) imports github.com/gin-gonic/gin/json and /binding from its
// root package; a clone of a mirror has another origin, and `go mod init`
// at the origin's path left those imports to the module proxy
// (deps_unreachable at test time). The module path is the one the code
// uses for its own folders.
func TestOwnImportPath(t *testing.T) {
	files := map[string]string{
		"errors.go":                  "package gin\n\nimport (\n\t\"fmt\"\n\n\t\"github.com/gin-gonic/gin/json\"\n)\n",
		"context.go":                 "package gin\n\nimport (\n\t\"github.com/gin-gonic/gin/binding\"\n\t\"github.com/gin-gonic/gin/render\"\n\t\"github.com/mattn/go-isatty\"\n)\n",
		"json/json.go":               "package json\n",
		"binding/binding.go":         "package binding\n\nimport \"gopkg.in/go-playground/validator.v8\"\n",
		"render/render.go":           "package render\n",
		"vendor/github.com/x/y/y.go": "package y\n\nimport \"github.com/other/mod/json\"\n",
	}
	tree := envgen.MapTree("mirror/gin", files)
	tree.Origin = "/srv/mirrors/gin.git"
	p, err := envgen.LanguageFor("go").Plan(tree, envgen.Tests{Files: []string{"errors_test.go"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Install) == 0 || !strings.Contains(p.Install[0], "'github.com/gin-gonic/gin'") {
		t.Errorf("install %v: want module github.com/gin-gonic/gin", p.Install)
	}
	if !strings.Contains(strings.Join(p.Notes, "\n"), "imports of its own folders (3, e.g.") {
		t.Errorf("notes do not say where the module path came from: %v", p.Notes)
	}
	files["doc.go"] = "// Package gin is a web framework.\npackage gin // import \"gopkg.in/gin-gonic/gin.v1\"\n"
	if got, src := ownImportPath(envgen.MapTree("o/n", files)); got != "gopkg.in/gin-gonic/gin.v1" || !strings.Contains(src, "doc.go") {
		t.Errorf("import comment: %s (%s)", got, src)
	}
	if got, _ := ownImportPath(envgen.MapTree("o/n", map[string]string{"a.go": "package a\n"})); got != "" {
		t.Errorf("nothing says: %q", got)
	}
}

// TestLanguageVersionAsOfDate is the web framework's PR #2990 (merge
// 2bde1076, 2022-03-21): go.mod says go 1.13 and the code uses `any`,
// which Go 1.18 compiled then; Go 1.22 stops at "predeclared any requires
// go1.18 or later (-lang was set to go1.13; check go.mod)" in both states.
func TestLanguageVersionAsOfDate(t *testing.T) {
	tree := envgen.MapTree("o/n", map[string]string{"go.mod": "module github.com/o/web\n\ngo 1.13\n", "a.go": "package web\n\nvar X any\n"})
	tree.Date = time.Date(2022, 3, 21, 0, 0, 0, 0, time.UTC)
	p, err := envgen.LanguageFor("go").Plan(tree, envgen.Tests{Files: []string{"a_test.go"}})
	if err != nil {
		t.Fatal(err)
	}
	if !envgentest.HasEnv(p, "GOFLAGS=-buildvcs=false -mod=mod -gcflags=github.com/o/web/...=-lang=go1.18") {
		t.Errorf("env %v", p.Env)
	}
	for _, c := range []struct {
		goLine string
		at     time.Time
		want   string
	}{
		{"1.13", time.Date(2022, 3, 14, 0, 0, 0, 0, time.UTC), "go1.17"},
		{"1.18", time.Date(2022, 9, 1, 0, 0, 0, 0, time.UTC), "go1.19"},
		{"1.19", time.Date(2022, 9, 1, 0, 0, 0, 0, time.UTC), ""},
		{"1.16", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), "go1.21"},
		{"1.13", time.Time{}, ""},
		{"banana", time.Date(2022, 9, 1, 0, 0, 0, 0, time.UTC), ""},
	} {
		if got, _ := langAsOf(c.goLine, c.at); got != c.want {
			t.Errorf("go %s at %s: %q, want %q", c.goLine, c.at.Format(time.DateOnly), got, c.want)
		}
	}
}
