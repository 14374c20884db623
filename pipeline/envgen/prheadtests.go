package envgen

import (
	"context"
	"fmt"
	"path"
	"sort"
	"strings"

	"curate/pipeline"
)

// HelperChecker is a Language that can name what a test file uses and its
// package does not define (a helper of a sibling test file).
type HelperChecker interface {
	UndefinedInTests(tree *Tree, files []string) map[string][]string
}

// prHeadTests is where the test files of some packages come from when the
// PR's own head has them and the merge commit does not compile them.
type prHeadTests struct {
	head    string   // the PR's head commit (refs/pull/<N>/head)
	files   []string // every test file of those packages at the head
	removes []string // their test files at the merge commit the head lacks
	note    string
}

// testsFromPRHead handles a PR whose test files call a name their package
// does not define at rev (a squash merged after the mainline renamed the
// helper the branch used): when the clone has the PR's head
// (refs/pull/<N>/head) and every test file of those packages there
// defines what they use, the packages' test files are taken from the
// head together, in both states. nil when nothing is undefined or the
// head does not help.
func testsFromPRHead(ctx context.Context, t *pipeline.Task, hc HelperChecker, tr *Tree, isTest func(string) bool, installs []string) *prHeadTests {
	undefined := hc.UndefinedInTests(tr, installs)
	if len(undefined) == 0 || t.PR <= 0 {
		return nil
	}
	dirs := map[string]bool{}
	var what []string
	for f, names := range undefined {
		dirs[path.Dir(f)] = true
		what = append(what, fmt.Sprintf("%s (%s)", f, strings.Join(names, ", ")))
	}
	sort.Strings(what)
	out, err := gitBytes(ctx, t.SourcePath, "rev-parse", "--verify", "-q", fmt.Sprintf("refs/pull/%d/head^{commit}", t.PR))
	if err != nil {
		return nil
	}
	head := strings.TrimSpace(string(out))
	files, err := lsTree(ctx, t.SourcePath, head)
	if err != nil {
		return nil
	}
	inDirs := func(list []string) map[string]bool {
		set := map[string]bool{}
		for _, f := range list {
			if dirs[path.Dir(f)] && isTest(f) {
				set[f] = true
			}
		}
		return set
	}
	atHead := inDirs(files)
	headTree := NewTree(tr.Repo, tr.Origin, files, func(p string) ([]byte, error) { return show(ctx, t.SourcePath, head, p) })
	p := &prHeadTests{head: head}
	for f := range atHead {
		p.files = append(p.files, f)
	}
	sort.Strings(p.files)
	if len(hc.UndefinedInTests(headTree, p.files)) > 0 {
		return nil
	}
	for f := range inDirs(tr.Files) {
		if !atHead[f] {
			p.removes = append(p.removes, f)
		}
	}
	sort.Strings(p.removes)
	p.note = fmt.Sprintf("the PR's test files use names their package does not define at the merge commit (%s): every test file of %s comes from the PR's own head %s (refs/pull/%d/head), where they are defined", strings.Join(what, "; "), strings.Join(sortedKeys(dirs), ", "), head[:12], t.PR)
	return p
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
