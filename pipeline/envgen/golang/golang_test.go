package golang

import (
	"curate/pipeline/envgen"
	"curate/pipeline/envgen/envgentest"
	"reflect"
	"strings"
	"testing"
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
	want := "go test -json -count=1 -run '^(TestA|TestB)$' '.' './pkg/x' './pkg/z' "
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
	vendored := planGo(t, map[string]string{"go.mod": "module m\n\ngo 1.20\n", "vendor/modules.txt": "# x\n"}, envgen.Tests{Files: []string{"a_test.go"}})
	if !envgentest.HasEnv(vendored, "GOFLAGS=-buildvcs=false -mod=vendor") || len(vendored.DepSteps) != 0 {
		t.Errorf("vendored: env %v deps %v", vendored.Env, vendored.DepSteps)
	}
	local := planGo(t, map[string]string{"go.mod": "module m\n\ngo 1.20\n\nreplace (\n\texample.com/x => ./x\n)\n"}, envgen.Tests{Files: []string{"a_test.go"}})
	if len(local.DepSteps) != 0 || len(local.Install) != 1 {
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
		if len(p.Install) == 0 || !strings.Contains(p.Install[0], "go mod init '"+want+"'") {
			t.Errorf("origin %q: install %v, want module %s", origin, p.Install, want)
		}
	}
}
