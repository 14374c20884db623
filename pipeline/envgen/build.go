package envgen

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"curate/internal/atomicfile"
	gitcmd "curate/internal/git"
	"curate/pipeline"
	"curate/pipeline/filter"
	"curate/pipeline/patch"
	"curate/pipeline/taskdir"
)

// Result is a built task.
type Result struct {
	Dir      string
	Digest   string
	Language string
	Image    string
	// Notes say why the environment is what it is (recorded on the task).
	Notes []string
	// Decisions are the toolchain choices with their sources (Plan.Decide).
	Decisions []Decision
	// Strategy is pipeline.AtMerge or AtSnapshot; for a snapshot build,
	// Snapshot is the commit and Method how the fix reversed there.
	Strategy, Snapshot, Method string
}

// Build writes tasks/<id>/ for a mined candidate. It builds in a temporary
// folder beside the target and renames it into place, so a failure leaves
// no partial task dir (and an existing one untouched). A PR that cannot
// be a task comes back as a *patch.Rejection.
func Build(ctx context.Context, t *pipeline.Task, tasksDir string, cfg Config) (*Result, error) {
	if t.SourcePath == "" || t.BaseCommit == "" || t.HeadCommit == "" {
		return nil, fmt.Errorf("build %s: not a mined task (no clone or commits recorded)", t.ID)
	}
	if strings.ContainsAny(t.ID, `/\`) || t.ID == "." || t.ID == ".." {
		return nil, fmt.Errorf("build %s: id is not a folder name", t.ID)
	}
	final, err := taskdir.SafeJoin(tasksDir, t.ID)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(tasksDir, 0o755); err != nil {
		return nil, err
	}
	tmp, done, err := patch.ScratchDir(cfg.Scratch, "build", tasksDir, ".build-"+t.ID+"-")
	if err != nil {
		return nil, err
	}
	defer done()

	fcfg := cfg.Filter
	if fcfg == nil {
		fcfg = &filter.Config{}
	}
	isTest := func(p string) bool { return fcfg.Classify(p) == filter.KindTest }
	set, err := patch.Make(ctx, t.SourcePath, t.BaseCommit, t.HeadCommit, isTest, cfg.MaxFileBytes)
	if err != nil {
		return nil, err
	}
	set.Scratch = cfg.Scratch
	// rev is the tree the task's environment holds: the PR head, or the
	// snapshot the PR is mirrored onto.
	rev, strategy, method := t.HeadCommit, pipeline.AtMerge, ""
	var dropped []string // inert files a mirror left out
	testMethod := ""     // how a mirror hid the PR's test change
	if cfg.Snapshot != "" {
		m, err := patch.Mirror(ctx, t.SourcePath, cfg.Snapshot, set)
		if err != nil {
			return nil, err
		}
		set, rev, strategy, method, dropped, testMethod = m.Set, m.Snapshot, pipeline.AtSnapshot, m.Method, m.Dropped, m.TestMethod
	}
	var reasons []string
	installs, removes := []string{}, []string{}
	for _, f := range set.TestFiles {
		if f.Deleted {
			removes = append(removes, f.Path)
		} else {
			installs = append(installs, f.Path)
		}
	}
	if len(installs) == 0 {
		reasons = append(reasons, fmt.Sprintf("no test files at the %s commit: nothing to verify with", map[string]string{pipeline.AtMerge: "head", pipeline.AtSnapshot: "snapshot"}[strategy]))
	}
	env := filepath.Join(tmp, "environment")
	for _, d := range []string{env, filepath.Join(tmp, "solution"), filepath.Join(tmp, "tests", "files")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	archive := filepath.Join(env, "repo.tar")
	if err := patch.Archive(ctx, t.SourcePath, rev, archive); err != nil {
		return nil, err
	}
	subs, err := patch.ArchiveSubmodules(ctx, t.SourcePath, rev, archive)
	if err != nil {
		return nil, err
	}
	if err := set.Check(ctx, archive); err != nil {
		if r, ok := patch.IsRejection(err); ok {
			reasons = append(reasons, r...)
		} else {
			return nil, err
		}
	}
	tree, err := lsTree(ctx, t.SourcePath, rev)
	if err != nil {
		return nil, err
	}
	var subPaths, leftOut []string
	for _, s := range subs {
		if s.LeftOut != "" {
			leftOut = append(leftOut, fmt.Sprintf("git submodule %s left out: the clone's copy (.git/modules) lacks objects of the commit the tree records (%s)", s.Path, s.LeftOut))
			continue
		}
		tree = append(tree, s.Files...)
		subPaths = append(subPaths, s.Path)
	}
	rc := cfg.Repos[t.Repo]
	lang := rc.Language
	if other := OtherLanguageOfTests(tree, installs); lang == "" && other != "" && rc.TestCommand == "" {
		reasons = append(reasons, fmt.Sprintf("the PR's %d test file(s) are %s (%s...), a language curate has no builder for: set [repos.%q] language, install and test_command in curate.toml to build it", len(installs), other, installs[0], t.Repo))
		return nil, &patch.Rejection{Reasons: reasons}
	}
	if lang == "" {
		lang = DetectForTests(tree, t.Language, installs)
	}
	planner := LanguageFor(lang)
	origin, _ := gitBytes(ctx, t.SourcePath, "remote", "get-url", "origin")
	tr := NewTree(t.Repo, strings.TrimSpace(string(origin)), tree, func(p string) ([]byte, error) { return show(ctx, t.SourcePath, rev, p) }).
		WithGrep(func(re string) ([]string, error) { return gitGrep(ctx, t.SourcePath, rev, re) })
	var helpers *prHelpers // test files written from the PR's head
	if hw, ok := planner.(HelperWriter); ok && strategy == pipeline.AtMerge {
		if helpers = helpersFromPRHead(ctx, t, hw, tr, installs); helpers != nil {
			for f := range helpers.files {
				installs = append(installs, f)
			}
			sort.Strings(installs)
		}
	}
	// Test files at head, and the names of their tests.
	var names []string
	for _, f := range installs {
		data, err := helpers.read(ctx, t.SourcePath, rev, f)
		if err != nil {
			return nil, err
		}
		dst, err := taskdir.SafeJoin(filepath.Join(tmp, "tests", "files"), f)
		if err != nil {
			return nil, err
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return nil, err
		}
		// An executable test file (a test script CTest or make runs) stays
		// executable: test.sh's cp keeps the mode of a file it creates.
		mode := os.FileMode(0o644)
		if ls, err := gitBytes(ctx, t.SourcePath, "ls-tree", rev, "--", f); err == nil && bytes.HasPrefix(ls, []byte("100755 ")) {
			mode = 0o755
		}
		if err := os.WriteFile(dst, data, mode); err != nil {
			return nil, err
		}
		if err := os.Chmod(dst, mode); err != nil {
			return nil, err
		}
		if planner != nil {
			names = append(names, planner.TestNames(f, string(data))...)
		}
	}
	sort.Strings(names)
	changed := changedTests(ctx, t, planner, installs, removes)
	if d, err := gitBytes(ctx, t.SourcePath, "describe", "--tags", "--abbrev=0", rev); err == nil {
		tr.Version = strings.TrimSpace(string(d))
	}
	if d, err := gitBytes(ctx, t.SourcePath, "log", "-1", "--format=%ct", rev); err == nil {
		if sec, err := strconv.ParseInt(strings.TrimSpace(string(d)), 10, 64); err == nil {
			tr.Date = time.Unix(sec, 0).UTC()
		}
	}
	if why := onlyCIScripts(tr, append(append([]string{}, installs...), removes...)); why != "" {
		reasons = append(reasons, why)
	}
	var plan *Plan
	switch {
	case planner != nil:
		if plan, err = planner.Plan(tr, Tests{Files: installs, Names: names, Changed: changed}); err != nil {
			reasons = append(reasons, err.Error())
		} else if strategy == pipeline.AtSnapshot {
			plan = repoPlan(planner, tr, tree, isTest, plan)
		}
	case rc.TestCommand != "":
		plan = &Plan{Language: lang}
		plan.Note("language %q: no planner; [repos] test_command and install decide", lang)
	default:
		reasons = append(reasons, fmt.Sprintf("no test runner for language %q: set [repos.\"OWNER/NAME\"] test_command in curate.toml", lang))
	}
	if len(reasons) > 0 {
		return nil, &patch.Rejection{Reasons: reasons}
	}
	plan.Test = withOverride(plan.Test, rc.TestCommand, installs)
	if rc.TestCommand != "" {
		plan.Note("test command from [repos] test_command")
	}
	if len(rc.Install) > 0 {
		plan.Note("install steps from [repos] install")
	}
	if helpers != nil {
		plan.Note("%s", helpers.note)
	}
	plan.Notes = append(plan.Notes, cfg.Network.Notes...)
	plan.Layer = Layer{Repo: t.Repo, Revision: rev, Strategy: strategy, Method: method, CRLF: crlfCheckout(tr),
		Network: touchesAny(set.SourceFiles, plan.Manifests) || touchesAny(testPaths(set.TestFiles), plan.Manifests) ||
			touchesName(set.SourceFiles, plan.RefetchOn) || touchesName(testPaths(set.TestFiles), plan.RefetchOn)}
	plan.Notes = append(plan.Notes, leftOut...)
	if len(subPaths) > 0 {
		plan.Note("git submodules %s from the clone (.git/modules), at the commits the tree records: git archive leaves their folders empty", strings.Join(subPaths, ", "))
	}
	if plan.Layer.CRLF {
		plan.Note("patches apply where git reads the repository's .gitattributes (an empty repository with /app as its work tree): they check some files out with CRLF, and the PR's diff has LF")
	}
	if strategy == pipeline.AtSnapshot {
		plan.Note("snapshot build: the PR mirrored onto %s (%s)", rev[:12], method)
		if testMethod == patch.MethodBase {
			plan.Note("the PR's test change does not reverse at the snapshot: the agent sees its test files as they were at the PR's base; verification restores the snapshot's")
		}
		if len(dropped) > 0 {
			plan.Note("mirrored without the PR's change to %s: the whole fix conflicts at the snapshot, and docs, CI and manifests do not change what the tests see there", strings.Join(dropped, ", "))
		}
	}
	known := pipeline.KnownFailures(t)
	if len(known) > 0 && CTRFStep(plan.Test.LogFormat) != "" {
		knownNotes(plan, known, pipeline.ExtraStrings(t, pipeline.ExtraFlakyTests))
	} else {
		known = nil
	}
	required := pipeline.RequiredTests(t)
	if len(required) > 0 && CTRFStep(plan.Test.LogFormat) != "" {
		plan.Note("test.sh requires the %d FAIL_TO_PASS test(s) curate validate found to be reported passed, so a run that leaves one out fails: %s", len(required), strings.Join(FirstOf(required, 3), ", "))
	} else {
		required = nil
	}
	image := cfg.Image(t.Repo, lang)
	if err := WriteEnvironment(env, t.ID, image, tr, plan, cfg.Network, rc, len(set.HideTests) > 0); err != nil {
		return nil, err
	}

	linkedS := extraStrings(t.Extra["linked_issues"])
	issueText, _ := t.Extra["issue_text"].(string)
	hide := append(append(append([]string{}, set.SourceFiles...), installs...), names...)
	for _, f := range set.TestFiles {
		hide = append(hide, f.Path)
	}
	toml, err := TaskTOML(t, lang, linkedS, plan)
	if err != nil {
		return nil, err
	}
	problem := issueText
	if strings.TrimSpace(problem) == "" {
		problem = t.Body
	}
	if strings.TrimSpace(problem) == "" {
		problem = t.Title
	}
	swe, err := SWEBench(t, set.Fix, set.Test, problem)
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{
		"environment/Dockerfile": []byte(Dockerfile(t.ID, image, plan, cfg.Network, rc, len(set.HideTests) > 0)),
		"environment/bug.patch":  set.Bug,
		"solution/fix.patch":     set.Fix,
		"solution/solve.sh":      []byte(SolveSh),
		"tests/test.sh":          []byte(TestSh(t.ID, plan.Test, installs, removes, known, required)),
		CTRFFile:                 CTRFScript,
		"instruction.md":         []byte(Instruction(t.Title, issueText, t.Body, hide)),
		"task.toml":              toml,
		"swebench.json":          append(swe, '\n'),
	}
	if len(known) > 0 {
		files[KnownFailuresFile] = []byte(strings.Join(known, "\n") + "\n")
	}
	if len(required) > 0 {
		files[RequiredTestsFile] = []byte(strings.Join(required, "\n") + "\n")
	}
	if len(set.HideTests) > 0 {
		files["environment/hide-tests.patch"] = set.HideTests
		// The PR's test diff, for SWE-bench export (test_patch); tests/
		// reaches the container only after the agent is done.
		files["tests/test.patch"] = set.Test
	}
	for rel, data := range files {
		mode := os.FileMode(0o644)
		if strings.HasSuffix(rel, ".sh") {
			mode = 0o755
		}
		if err := os.WriteFile(filepath.Join(tmp, rel), data, mode); err != nil {
			return nil, err
		}
	}
	if cfg.Finish != nil {
		if err := cfg.Finish(tmp); err != nil {
			return nil, err
		}
	}
	digest, err := taskdir.Digest(tmp)
	if err != nil {
		return nil, err
	}
	if err := atomicfile.ReplaceDir(tmp, final); err != nil {
		return nil, err
	}
	return &Result{Dir: final, Digest: digest, Language: lang, Image: image, Notes: plan.Notes, Decisions: plan.Decisions, Strategy: strategy, Snapshot: map[bool]string{true: rev}[strategy == pipeline.AtSnapshot], Method: method}, nil
}

// repoPlan makes a snapshot build's environment the same for every task
// of the repository: toolchain, dependencies and install are planned for
// all the test files at the snapshot (a planner may warm its runner up on
// the tests it is given), and only the test command is the task's own.
// When the repository-wide plan fails, the task's plan stands.
func repoPlan(planner Language, tr *Tree, tree []string, isTest func(string) bool, task *Plan) *Plan {
	var all []string
	for _, p := range tree {
		if isTest(p) {
			all = append(all, p)
		}
	}
	repo, err := planner.Plan(tr, Tests{Files: all})
	if err != nil {
		return task
	}
	repo.Test, repo.Notes, repo.Decisions = task.Test, task.Notes, task.Decisions
	repo.BuildTimeoutSec = max(repo.BuildTimeoutSec, task.BuildTimeoutSec)
	repo.MemoryMB = max(repo.MemoryMB, task.MemoryMB)
	return repo
}

// touchesAny reports whether one of paths is one of files.
func touchesAny(paths, files []string) bool {
	for _, p := range paths {
		for _, f := range files {
			if p == f {
				return true
			}
		}
	}
	return false
}

// touchesName reports whether any of paths has one of the file names.
func touchesName(paths, names []string) bool {
	for _, p := range paths {
		if slices.Contains(names, path.Base(p)) {
			return true
		}
	}
	return false
}

func testPaths(fs []patch.TestFile) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Path
	}
	return out
}

// WriteEnvironment writes what the Dockerfile of a plan needs into env
// (a task's environment/ folder): the Dockerfile, the dependency
// manifests, the plan's helper files, curate-step and the CA bundle. The
// caller adds repo.tar and the patches.
func WriteEnvironment(env, taskID, image string, tr *Tree, plan *Plan, net Network, rc RepoConfig, hideTests bool) error {
	if err := writeManifests(tr, env, plan.Manifests); err != nil {
		return err
	}
	files := map[string]string{"Dockerfile": Dockerfile(taskID, image, plan, net, rc, hideTests), stepFile: StepScript}
	if len(rc.Install) == 0 {
		for name, text := range plan.Files {
			files["curate/"+name] = text
		}
	}
	for name, text := range plan.Tools {
		files["tools/"+name] = text
	}
	if net.CABundle != "" {
		data, err := os.ReadFile(net.CABundle)
		if err != nil {
			return fmt.Errorf("[docker] ca_bundle: %w", err)
		}
		files[caFile] = string(data)
	}
	for name, text := range files {
		dst := filepath.Join(env, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if name == stepFile || strings.HasPrefix(name, "tools/") {
			mode = 0o755
		}
		if err := os.WriteFile(dst, []byte(text), mode); err != nil {
			return err
		}
	}
	return nil
}

// writeManifests copies dependency manifests into environment/manifests/
// (the Dockerfile copies them in before the repository).
func writeManifests(tr *Tree, env string, files []string) error {
	for _, f := range files {
		data, err := tr.Read(f)
		if err != nil {
			return err
		}
		dst, err := taskdir.SafeJoin(filepath.Join(env, "manifests"), f)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func lsTree(ctx context.Context, repo, rev string) ([]string, error) {
	out, err := gitBytes(ctx, repo, "ls-tree", "-r", "-z", "--name-only", rev)
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, p := range bytes.Split(out, []byte{0}) {
		if len(p) > 0 {
			paths = append(paths, string(p))
		}
	}
	return paths, nil
}

// gitGrep lists the files at rev with a line matching the extended
// regular expression re.
func gitGrep(ctx context.Context, repo, rev, re string) ([]string, error) {
	out, err := gitcmd.Command(ctx, repo, nil, "grep", "-l", "-z", "-E", "-e", re, rev, "--").Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() == 1 {
			return nil, nil // no match
		}
		return nil, fmt.Errorf("git grep: %w", err)
	}
	var files []string
	for _, f := range bytes.Split(out, []byte{0}) {
		if len(f) > 0 {
			files = append(files, strings.TrimPrefix(string(f), rev+":"))
		}
	}
	return files, nil
}

func show(ctx context.Context, repo, rev, path string) ([]byte, error) {
	return gitBytes(ctx, repo, "cat-file", "blob", rev+":"+path)
}

func gitBytes(ctx context.Context, repo string, args ...string) ([]byte, error) {
	return gitcmd.Output(ctx, repo, args...)
}

// extraStrings reads a string list from Task.Extra, fresh ([]string) or
// decoded from the store ([]any).
func extraStrings(v any) []string {
	switch l := v.(type) {
	case []string:
		return l
	case []any:
		out := make([]string, 0, len(l))
		for _, x := range l {
			out = append(out, fmt.Sprint(x))
		}
		return out
	}
	return nil
}

// FirstOf is at most n of ss, then "and K more".
func FirstOf(ss []string, n int) []string {
	if len(ss) <= n {
		return ss
	}
	return append(append([]string{}, ss[:n]...), fmt.Sprintf("and %d more", len(ss)-n))
}

// knownNotes says which tests do not decide the reward, and why: flaky
// ones changed status between repeats, the others fail after the fix and
// never passed before it (or a curator dropped them).
func knownNotes(plan *Plan, known, flaky []string) {
	var rest []string
	for _, k := range known {
		if !slices.Contains(flaky, k) {
			rest = append(rest, k)
		}
	}
	if len(flaky) > 0 {
		plan.Note("%d test(s) change status between repeats on this environment, so they do not decide the reward (curate validate found them): %s", len(flaky), strings.Join(FirstOf(flaky, 3), ", "))
	}
	if len(rest) > 0 {
		plan.Note("%d test(s) fail after the fix and never passed before it on this environment, so they do not decide the reward (curate validate found them): %s", len(rest), strings.Join(FirstOf(rest, 3), ", "))
	}
}
