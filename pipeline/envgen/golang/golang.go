package golang

import (
	"curate/pipeline/envgen"
	"curate/pipeline/envgen/ciconfig"
	"fmt"
	"net/url"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// golang plans Go tasks: the toolchain go.mod asks for (fetched through
// the module proxy), modules downloaded and tests compiled at build time
// so validation runs offline, cgo only when a package needs it.
type golang struct{}

func init() { envgen.Register(golang{}) }

func (golang) Name() string { return "go" }

// DefaultGo is the toolchain used when go.mod asks for an older one (or
// nothing): Go keeps old code building, and tests written for a newer Go
// than go.mod says (common: go.mod's line is a minimum) still compile.
// Debian 12's own Go (1.19) only fetches it.
const DefaultGo = "1.22.12"

// debianGo is the Go Debian 12 ships, which fetches the wanted toolchain.
const debianGo = "1.19"

var goTestRe = regexp.MustCompile(`(?m)^func\s+(Test\w*)\s*\(\s*\w+\s+\*testing\.T\s*\)`)

func (golang) TestNames(_, content string) []string { return envgen.NamesMatching(goTestRe, content) }

// goMod is what the planner reads from go.mod.
type goMod struct {
	module, goLine, toolchain string
	localReplace              bool // a replace => ./dir needs the whole tree
}

var goVersionRe = regexp.MustCompile(`^1\.(\d+)(?:\.(\d+))?((?:rc|beta)\d+)?$`)

func parseGoMod(text string) goMod {
	var m goMod
	inReplace := false
	for _, line := range strings.Split(text, "\n") {
		if i := strings.Index(line, "//"); i >= 0 {
			line = line[:i]
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		switch {
		case inReplace && f[0] == ")":
			inReplace = false
		case inReplace || f[0] == "replace":
			if f[0] == "replace" && len(f) > 1 && f[1] == "(" {
				inReplace = true
				continue
			}
			for i, w := range f {
				if w == "=>" && i+1 < len(f) && (strings.HasPrefix(f[i+1], "./") || strings.HasPrefix(f[i+1], "../")) {
					m.localReplace = true
				}
			}
		case f[0] == "module" && len(f) > 1:
			m.module = strings.Trim(f[1], `"`)
		case f[0] == "go" && len(f) > 1:
			m.goLine = f[1]
		case f[0] == "toolchain" && len(f) > 1:
			m.toolchain = strings.TrimPrefix(f[1], "go")
		}
	}
	return m
}

// goLess compares Go versions ("1.21", "1.21.3", "1.22rc1").
func goLess(a, b string) bool {
	pa, pb := goParts(a), goParts(b)
	for i := range pa {
		if pa[i] != pb[i] {
			return pa[i] < pb[i]
		}
	}
	return false
}

// goParts is [minor, patch, release(1) or pre-release(0), pre number].
func goParts(v string) [4]int {
	m := goVersionRe.FindStringSubmatch(v)
	if m == nil {
		return [4]int{}
	}
	minor, _ := strconv.Atoi(m[1])
	patch, _ := strconv.Atoi(m[2])
	rel, pre := 1, 0
	if m[3] != "" {
		rel = 0
		pre, _ = strconv.Atoi(strings.TrimLeft(m[3], "rcbeta"))
	}
	return [4]int{minor, patch, rel, pre}
}

// goToolchain picks the Go version for a go.mod: the newer of its
// toolchain and go lines (Go needs at least both), raised to DefaultGo.
// From Go 1.21 on, "1.N" means 1.N.0.
func goToolchain(m goMod) (version, source string) {
	return goToolchainOf(declaredGo{"go.mod", m})
}

// declaredGo is a file that declares the Go it needs (go.mod, go.work).
type declaredGo struct {
	file string
	mod  goMod
}

// goToolchainOf is the newest Go the files' go and toolchain lines ask
// for (go.work's lines bind the whole workspace: go refuses to run an
// older one), or curate's default when that is newer.
func goToolchainOf(files ...declaredGo) (version, source string) {
	want, from := "", ""
	for _, d := range files {
		for _, c := range []struct{ v, from string }{{d.mod.goLine, d.file + " go"}, {d.mod.toolchain, d.file + " toolchain"}} {
			if c.v == "" || c.v == "default" {
				continue
			}
			if !goVersionRe.MatchString(c.v) {
				return DefaultGo, fmt.Sprintf("curate's default (%s %q is not a Go version)", c.from, c.v)
			}
			v := c.v
			if p := goParts(v); p[0] >= 21 && strings.Count(v, ".") == 1 && p[2] == 1 {
				v += ".0"
			}
			if want == "" || goLess(want, v) {
				want, from = v, c.from
			}
		}
	}
	if want == "" {
		return DefaultGo, "curate's default (go.mod names no Go version)"
	}
	if !goLess(DefaultGo, want) {
		return DefaultGo, fmt.Sprintf("curate's default (%s %s is older; the newer Go builds it)", from, want)
	}
	return want, fmt.Sprintf("%s %s", from, want)
}

// goToolchainStep fetches go<version> as the golang.org/toolchain module
// with Debian's Go and installs it in /usr/local/go. A version the proxy
// does not have is toolchain_mismatch; a proxy that does not answer is
// deps_unreachable.
func goToolchainStep(version string) string {
	v := "go" + version
	return `cd /tmp && tc="golang.org/toolchain@v0.0.1-` + v + `.$(go env GOOS)-$(go env GOARCH)" && ` +
		`if ! GOPATH=/tmp/gotc GOFLAGS=-mod=mod go mod download -json "$tc" > /tmp/gotc.out 2>&1; then cat /tmp/gotc.out; ` +
		`if grep -Eqi ` + envgen.ShellQuote(envgen.UnreachableRe) + ` /tmp/gotc.out; then echo "curate: deps_unreachable: the Go module proxy ($GOPROXY) did not answer for $tc" >&2; ` +
		`else echo "curate: toolchain_mismatch: go.mod wants ` + v + `, present $(go env GOVERSION 2>/dev/null || go version); the module proxy ($GOPROXY) has no $tc" >&2; fi; exit 1; fi && ` +
		`rm -rf /usr/local/go && cp -a /tmp/gotc/pkg/mod/golang.org/toolchain@v0.0.1-` + v + `.* /usr/local/go && ` +
		`chmod -R u+w /usr/local/go && chmod +x /usr/local/go/bin/* /usr/local/go/pkg/tool/*/* && ` +
		`chmod -R u+w /tmp/gotc && rm -rf /tmp/gotc /tmp/gotc.out && /usr/local/go/bin/go version`
}

// resolveTestImports loads every package of the tree and its tests in a
// copy of /app with -mod=mod, so what they need is in the module cache.
const resolveTestImports = `sh -c 'rm -rf /tmp/curate-resolve && cp -a /app /tmp/curate-resolve && cd /tmp/curate-resolve && GOFLAGS="$GOFLAGS -mod=mod" go list -e -deps -test ./... >/dev/null; st=$?; cd / && rm -rf /tmp/curate-resolve; exit $st'`

// offline runs the tests without the module proxy: what the build did not
// resolve fails as a build error of the state under test (a package the
// bug removed), never as a network error (deps_unreachable). The module
// cache still serves what was downloaded; its hashes were checked then.
const offline = "GOPROXY=off GOSUMDB=off "

// GoMissingSed prints module@version from "go: mod@v: reading ...: 404".
const GoMissingSed = `s/^(go: )?([^ :]+@[^ :]+): .*(404|410|not available|unknown revision|invalid version|not found).*$/\2/p`

func (golang) Plan(tree *envgen.Tree, tests envgen.Tests) (*envgen.Plan, error) {
	p := &envgen.Plan{Language: "go", Packages: []string{"golang-go"}}
	mod := parseGoMod(tree.Text("go.mod"))
	declared := []declaredGo{{"go.mod", mod}}
	if tree.Has("go.work") {
		declared = append(declared, declaredGo{"go.work", parseGoMod(tree.Text("go.work"))})
	}
	version, source := goToolchainOf(declared...)
	if v, src, ok := ciconfig.Read(tree).Version(ciconfig.Go); ok && strings.HasPrefix(source, "curate's default (go.mod names no") {
		// go.mod names no Go: CI's setup-go when newer than the default
		// ("1.24.x" is 1.24.0).
		if w := strings.TrimSuffix(strings.TrimLeft(v, "^~>= v"), ".x"); goVersionRe.MatchString(w) {
			if strings.Count(w, ".") == 1 {
				w += ".0"
			}
			if goLess(DefaultGo, w) {
				version, source = w, src
			}
		}
	}
	p.Toolchain = envgen.Toolchain{Name: "go", Version: version, Why: source}
	p.Decide("go", version, source)
	p.Note("Go %s is fetched through the module proxy (Debian's is %s)", version, debianGo)
	p.ToolchainSteps = []string{goToolchainStep(version)}
	p.Env = []string{"PATH=/usr/local/go/bin:/root/go/bin:$PATH", "GOPATH=/root/go", "GOTOOLCHAIN=local"}

	goflags := "-buildvcs=false"
	vendored := tree.Has("go.mod") && strings.Contains(tree.Text("vendor/modules.txt"), "## explicit")
	switch {
	case vendored:
		goflags += " -mod=vendor"
		p.Note("vendor/modules.txt: modules come from vendor/ (-mod=vendor)")
	case hasVendor(tree):
		// Go 1.14+ reads vendor/ by default and stops at one it calls
		// inconsistent (no modules.txt, or one without "## explicit").
		goflags += " -mod=mod"
		p.Note("vendor/ predates Go 1.14's vendor/modules.txt: a newer Go calls it inconsistent, so it is ignored (-mod=mod) and modules come from the proxy")
	case tree.Has("go.mod") && mod.goLine != "" && goLess(mod.goLine, "1.16"):
		// Before Go 1.16 the go command completed go.mod and go.sum as it
		// built; a newer one stops at "missing go.sum entry" instead.
		goflags += " -mod=mod"
		p.Note("go.mod says go %s, before Go 1.16 made go.mod and go.sum read-only: the go command completes them as the Go of that time did (-mod=mod)", mod.goLine)
	}
	if lang, src := langAsOf(mod.goLine, tree.Date); lang != "" && mod.module != "" && !strings.ContainsAny(mod.module, " '\"\\$`") {
		// Only the module's own packages: the standard library keeps its own.
		goflags += " -gcflags=" + mod.module + "/...=-lang=" + lang
		p.Decide("go language version", lang, src)
	}
	p.Env = append(p.Env, "GOFLAGS="+goflags)
	if pkgs := goCgoPackages(tree); len(pkgs) > 0 {
		p.Packages = append(p.Packages, "gcc", "libc6-dev")
		p.Env = append(p.Env, "CGO_ENABLED=1")
		p.Note("cgo on (gcc installed): %s imports \"C\" with no pure-Go fallback", strings.Join(firstN(pkgs, 3), ", "))
	} else {
		p.Env = append(p.Env, "CGO_ENABLED=0")
		p.Note("cgo off: no package needs it (tests then need no C compiler, even for net)")
	}

	download := envgen.RegistryStep("the Go module proxy ($GOPROXY)", GoMissingSed, "go mod download")
	switch {
	case !tree.Has("go.mod"):
		planGOPATH(tree, p)
	case vendored:
	case mod.localReplace:
		p.Note("go.mod replaces modules with local folders: modules downloaded with the whole tree")
		p.Install = []string{download}
	default:
		p.Manifests = []string{"go.mod"}
		if tree.Has("go.sum") {
			p.Manifests = append(p.Manifests, "go.sum")
		}
		p.DepSteps = []string{download}
		p.Note("modules downloaded at build time from go.mod/go.sum (a layer shared while they do not change)")
	}
	if tree.Has("go.mod") && !vendored {
		// Every package the tests import, with the modules that provide it
		// and the go.mod files of the whole graph, goes into the module
		// cache while the network is on; a copy keeps /app as committed.
		p.Install = append(p.Install, envgen.RegistryStep("the Go module proxy ($GOPROXY)", GoMissingSed, resolveTestImports))
		p.Note("the packages every test imports are resolved at build time (go list -deps -test ./... on a copy of the tree): the tests then run with the module proxy off (GOPROXY=off)")
	}
	// The base revision may pin other module versions: fetch them, then
	// compile every package's tests once (without running them) so the
	// build cache is warm and validation needs no network.
	if tree.Has("go.mod") && !vendored {
		p.AfterBug = append(p.AfterBug, download)
	}
	p.AfterBug = append(p.AfterBug, "go test -vet=off -count=1 -run '^$' -exec /bin/true ./... >/dev/null 2>&1 || echo 'curate: note: warm-up compile of the tests failed (the bug may not compile)'")

	pkgs := goTestPackages(tests.Files)
	run := ""
	if len(tests.Names) > 0 {
		run = "-run " + envgen.ShellQuote("^("+strings.Join(tests.Names, "|")+")$") + " "
	}
	p.Test = envgen.Runner{
		// The JSON events go to the log too: graders parse them.
		Command:   offline + "go test -json -vet=off -count=1 " + run + envgen.QuoteAll(pkgs) + " 2>&1 | tee /logs/verifier/go-test.json; test ${PIPESTATUS[0]} -eq 0",
		Check:     `grep -q '"Action":"pass","Package":"[^"]*","Test"' /logs/verifier/go-test.json`,
		LogFormat: "go",
	}
	p.Note("tests: go test -json on %s; test ids are package.TestName", strings.Join(pkgs, " "))
	p.Note("go vet inside go test is off (-vet=off): a check a newer Go adds would fail both states alike")
	ciconfig.AptPackages(p, tree)
	return p, nil
}

// goTestPackages are the packages of the PR's test files: the folder of
// each _test.go file, or the folder above a testdata/ tree.
func goTestPackages(files []string) []string {
	set := map[string]bool{}
	for _, f := range files {
		dir := ""
		switch {
		case strings.HasSuffix(f, "_test.go"):
			dir = path.Dir(f)
		case strings.Contains("/"+f, "/testdata/"):
			dir = path.Dir(("/" + f)[:strings.Index("/"+f, "/testdata/")+1])
			dir = strings.TrimPrefix(dir, "/")
			if dir == "" {
				dir = "."
			}
		default:
			continue
		}
		if dir == "." {
			set["."] = true
		} else {
			set["./"+dir] = true
		}
	}
	if len(set) == 0 {
		return []string{"./..."}
	}
	var out []string
	for d := range set {
		out = append(out, d)
	}
	sort.Strings(out)
	return out
}

var cgoBuildTagRe = regexp.MustCompile(`(?m)^//(go:build|\s*\+build)\s.*\bcgo\b`)

// goCgoPackages lists folders with a non-test file importing "C" whose
// build constraint does not mention cgo (with one that does, a pure-Go
// fallback exists, so cgo can stay off).
func goCgoPackages(tree *envgen.Tree) []string {
	set := map[string]bool{}
	for _, f := range tree.Grep(`^import[[:space:]]+"C"|^[[:space:]]+"C"[[:space:]]*$`, ".go") {
		if strings.HasSuffix(f, "_test.go") || strings.HasPrefix(f, "vendor/") || strings.Contains(f, "/testdata/") || strings.HasPrefix(f, "testdata/") {
			continue
		}
		if cgoBuildTagRe.MatchString(tree.Text(f)) {
			continue
		}
		set[path.Dir(f)] = true
	}
	var out []string
	for d := range set {
		out = append(out, d)
	}
	sort.Strings(out)
	return out
}

// goModulePath is the import path of a repository without go.mod: its
// origin remote as a path (github.com/owner/name), else github.com/<repo>.
func goModulePath(tree *envgen.Tree) string {
	o := strings.TrimSuffix(strings.TrimSpace(tree.Origin), ".git")
	if strings.Contains(o, "://") {
		if u, err := url.Parse(o); err == nil && u.Host != "" && u.Path != "" {
			return u.Host + u.Path
		}
	} else if host, p, ok := strings.Cut(o, ":"); ok && strings.Contains(host, "@") && p != "" {
		return host[strings.Index(host, "@")+1:] + "/" + strings.TrimPrefix(p, "/")
	}
	if tree.Repo != "" {
		return "github.com/" + tree.Repo
	}
	return "example.com/project"
}

func firstN(s []string, n int) []string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// hasVendor reports a vendor/ folder at the root.
func hasVendor(tree *envgen.Tree) bool {
	for _, f := range tree.Files {
		if strings.HasPrefix(f, "vendor/") {
			return true
		}
	}
	return false
}
