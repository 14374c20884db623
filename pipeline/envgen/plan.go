package envgen

import (
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"
	"time"
)

// Tree is the repository at the task's revision, as a language sees it
// when it plans the environment: every file path, and a reader.
type Tree struct {
	Repo   string // owner/name
	Origin string // URL of the origin remote ("" when unknown)
	// Version is the nearest tag (git describe), "" when none.
	Version string
	// Date is the revision's commit time (zero when unknown): planners
	// that must pick a tool's release pick one as of then.
	Date  time.Time
	Files []string // every path, sorted
	read  func(path string) ([]byte, error)
	grep  func(re string) ([]string, error)
	has   map[string]bool
}

// NewTree makes a Tree over a file list and a reader (git at a revision,
// or a map in tests).
func NewTree(repo, origin string, files []string, read func(string) ([]byte, error)) *Tree {
	sorted := append([]string(nil), files...)
	sort.Strings(sorted)
	has := make(map[string]bool, len(sorted))
	for _, f := range sorted {
		has[f] = true
	}
	return &Tree{Repo: repo, Origin: origin, Files: sorted, read: read, has: has}
}

// MapTree is a Tree over in-memory files, for tests and tools.
func MapTree(repo string, files map[string]string) *Tree {
	var list []string
	for f := range files {
		list = append(list, f)
	}
	return NewTree(repo, "", list, func(p string) ([]byte, error) {
		s, ok := files[p]
		if !ok {
			return nil, fmt.Errorf("%s: no such file", p)
		}
		return []byte(s), nil
	})
}

// WithGrep gives the tree a fast content search (git grep at the
// revision); without one, Grep reads every candidate file.
func (t *Tree) WithGrep(grep func(re string) ([]string, error)) *Tree {
	t.grep = grep
	return t
}

// Grep lists the files with suffix whose content matches the extended
// regular expression re (POSIX ERE, as git grep -E reads it).
func (t *Tree) Grep(re, suffix string) []string {
	var out []string
	if t.grep != nil {
		found, err := t.grep(re)
		if err == nil {
			for _, f := range found {
				if strings.HasSuffix(f, suffix) {
					out = append(out, f)
				}
			}
			return out
		}
	}
	rx, err := regexp.CompilePOSIX(re)
	if err != nil {
		return nil
	}
	rx.Longest()
	for _, f := range t.Files {
		if strings.HasSuffix(f, suffix) {
			for _, line := range strings.Split(t.Text(f), "\n") {
				if rx.MatchString(line) {
					out = append(out, f)
					break
				}
			}
		}
	}
	return out
}

// Has reports whether the tree holds the file.
func (t *Tree) Has(p string) bool { return t.has[p] }

// Read returns a file's content.
func (t *Tree) Read(p string) ([]byte, error) { return t.read(p) }

// Text returns a file's content, or "" when it is missing or unreadable
// (planners treat both as "not there").
func (t *Tree) Text(p string) string {
	if !t.has[p] {
		return ""
	}
	b, err := t.read(p)
	if err != nil {
		return ""
	}
	return string(b)
}

// Glob lists the files whose path matches pattern (path.Match syntax).
func (t *Tree) Glob(pattern string) []string {
	var out []string
	for _, f := range t.Files {
		if ok, _ := path.Match(pattern, f); ok {
			out = append(out, f)
		}
	}
	return out
}

// Tests are the PR's test files (at the head) and the test names found in
// them; test.sh installs those files and runs only them.
type Tests struct {
	Files []string
	Names []string
	// Changed are the tests whose definitions the PR adds or changes, when
	// every change to a test file is inside such a definition (a changed
	// helper, fixture or data file could change any test: then nil). Only
	// languages that implement ChangedTestNamer fill it.
	Changed []string
}

// ChangedTestNamer is a Language that can name the tests a change to one
// test file touches, from the file before and after the PR. ok is false
// when some of the change is outside every test (a helper, a fixture).
type ChangedTestNamer interface {
	ChangedTestNames(file, before, after string) (names []string, ok bool)
}

// Toolchain is what runs the tests, and why that one.
type Toolchain struct {
	Name    string // go, python, node, rust, java
	Version string // wanted version, "" = the distribution's
	Why     string
}

// Plan is a language's decision for one task: how the image is made and
// how the PR's tests run in it. Every choice adds a line to Notes, which
// `curate build` records on the task and `curate show` prints.
type Plan struct {
	Language  string
	Toolchain Toolchain
	// Packages are Debian packages the toolchain needs (apt-get in the
	// image build; layers are shared by every task that needs the same).
	Packages []string
	// Toolchain steps run before the repository arrives (shared layers).
	ToolchainSteps []string
	// Tools are helper programs (name → content, with a #! line): files
	// in the build context's tools/, copied to /usr/local/bin before the
	// toolchain steps and called by name, so the Dockerfile reads as
	// commands, not as scripts inlined into RUN.
	Tools map[string]string
	// Env are ENV lines (KEY=VALUE) for the build and the tests.
	Env []string
	// Manifests are files copied into the image before the repository,
	// so dependency steps that only read them are cached across tasks.
	Manifests []string
	// Files are helpers and generated inputs for DepSteps (name → content),
	// copied to /usr/local/share/curate/ before them.
	Files map[string]string
	// DepSteps run after Manifests and Files are copied, with network.
	DepSteps []string
	// Install steps run after the repository is in /app, with network.
	Install []string
	// AfterBug steps run once bug.patch has recreated the bug, with
	// network (e.g. dependencies the base revision pins differently).
	AfterBug []string
	// RefetchOn are file names (any folder) whose change by the PR gives
	// the task layer network, so AfterBug can fetch what the buggy
	// manifests ask for (Manifests count too).
	RefetchOn []string
	// Test runs the PR's test files and writes the log the parser reads.
	Test Runner
	// BuildTimeoutSec is task.toml's [environment] build_timeout_sec when
	// the default (600) is too short: compiling a crate's tests or a
	// first Maven build on a busy machine.
	BuildTimeoutSec int
	// VerifierTimeoutSec is task.toml's [verifier] timeout_sec when the
	// default (600) is too short: test.sh recompiles what a patch touched.
	VerifierTimeoutSec int
	// MemoryMB is task.toml's [environment] memory_mb when the default
	// (2048) is too little: a C++ compiler takes over 1 GB for a large
	// translation unit, and the build runs two at a time.
	MemoryMB int
	// Notes say why (one line each).
	Notes []string
	// Decisions are the toolchain choices with where each came from
	// (Decide); each is also a note.
	Decisions []Decision
	// Layer is set by Build, not by planners: what the image split needs.
	Layer Layer
}

// Layer says how a task's Dockerfile splits into the repository's
// environment image and the task's own layer (pipeline.TaskLayerMarker).
type Layer struct {
	Repo, Revision string // LABELs of the environment image
	// Network is true when the task layer's steps need a registry (the
	// bug changes a dependency manifest); else it builds offline.
	Network bool
	// Strategy is how the task is built (pipeline.AtMerge, AtSnapshot);
	// Method how a snapshot build's fix reversed (patch.MethodReverse...).
	Strategy, Method string
	// CRLF is true when the tree's .gitattributes check files out with
	// CRLF: the patches then apply where git reads those attributes.
	CRLF bool
}

// Runner is the test command for the selected files, a check that the
// report shows at least one test ran (so "no tests" is never a pass), and
// the name of the log format its output is parsed with (go, pytest,
// cargo, jest, vitest, mocha, ava, tap, surefire...).
type Runner struct {
	Command   string
	Check     string
	LogFormat string
}

// Decision is one toolchain choice and its source: the file and the
// setting the project declares it in, or the default when it declares none
// ("maven", "3.9.9", "pom.xml maven-enforcer-plugin requireMavenVersion [3.9,)").
type Decision struct {
	Tool    string `json:"tool"`
	Version string `json:"version"`
	Source  string `json:"source"`
}

// String is the decision as its note reads.
func (d Decision) String() string {
	return "toolchain: " + d.Tool + " " + d.Version + " from " + d.Source
}

// Decide records a toolchain choice with its source, and notes it.
func (p *Plan) Decide(tool, version, source string) {
	d := Decision{Tool: tool, Version: version, Source: source}
	p.Decisions = append(p.Decisions, d)
	p.Notes = append(p.Notes, d.String())
}

// Tool adds a helper program to the image (see Plan.Tools).
func (p *Plan) Tool(name, content string) {
	if p.Tools == nil {
		p.Tools = map[string]string{}
	}
	p.Tools[name] = content
}

// Note adds a "why" line.
func (p *Plan) Note(format string, args ...any) {
	p.Notes = append(p.Notes, fmt.Sprintf(format, args...))
}

// Language plans the environment of one language. Each language is a
// package under pipeline/envgen/ (golang, python, javascript, rust, java,
// cfamily) whose init calls Register; pipeline/envgen/languages imports
// them all, and whoever builds tasks imports that.
type Language interface {
	// Name is the language's key (the one DetectLanguage returns).
	Name() string
	// TestNames lists the tests a test file defines (for selecting them
	// and for keeping them out of the instruction).
	TestNames(file, content string) []string
	// Plan decides toolchain, install steps and test command. An error is
	// a reason the task cannot be built (the build rejects it).
	Plan(tree *Tree, tests Tests) (*Plan, error)
}

var languages = map[string]Language{}

// Register adds a language; each language's package calls it from init.
func Register(l Language) { languages[l.Name()] = l }

// LanguageFor returns the planner of a language, or nil.
func LanguageFor(name string) Language { return languages[name] }

// commonPackages are what every task image needs, whatever the language;
// less because test suites expect a pager where CI runners have one.
var commonPackages = []string{"bash", "git", "patch", "ca-certificates", "less"}

// evidence formats a line that build logs carry for the failure
// classifier: "curate: <class>: <message>".
func evidence(class, format string, args ...any) string {
	return "curate: " + class + ": " + fmt.Sprintf(format, args...)
}

// FailStep is a RUN body that prints an evidence line and fails the build.
func FailStep(class, format string, args ...any) string {
	return "echo " + ShellQuote(evidence(class, format, args...)) + " >&2; exit 1"
}

// QuoteAll shell-quotes each string and joins them with spaces.
func QuoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = ShellQuote(s)
	}
	return strings.Join(q, " ")
}
