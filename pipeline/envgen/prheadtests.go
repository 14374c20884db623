package envgen

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"curate/pipeline"
)

// HelperWriter is a Language that can write, beside a PR's test files,
// the helpers they call that their package lacks at the task's revision,
// as the PR's own head declares them.
type HelperWriter interface {
	PRHelpers(rev, head *Tree, files []string) map[string]string
}

// prHelpers are test files curate writes from the PR's head.
type prHelpers struct {
	files map[string]string // path -> content
	note  string
}

// helpersFromPRHead handles a PR whose test files call a helper their
// package does not define at rev (a squash merged after the mainline
// renamed the helper the branch used: "undefined: performRequest" in both
// states). When the clone has the PR's head (refs/pull/<N>/head), the
// helpers' declarations there are written as one more test file of the
// package, installed in both states; the package's own test files stay
// as rev has them. nil when nothing is missing or the head does not help.
func helpersFromPRHead(ctx context.Context, t *pipeline.Task, hw HelperWriter, tr *Tree, installs []string) *prHelpers {
	if t.PR <= 0 {
		return nil
	}
	out, err := gitBytes(ctx, t.SourcePath, "rev-parse", "--verify", "-q", fmt.Sprintf("refs/pull/%d/head^{commit}", t.PR))
	if err != nil {
		return nil
	}
	head := strings.TrimSpace(string(out))
	files, err := lsTree(ctx, t.SourcePath, head)
	if err != nil {
		return nil
	}
	headTree := NewTree(tr.Repo, tr.Origin, files, func(p string) ([]byte, error) { return show(ctx, t.SourcePath, head, p) })
	gen := hw.PRHelpers(tr, headTree, installs)
	if len(gen) == 0 {
		return nil
	}
	var paths []string
	for p := range gen {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	return &prHelpers{files: gen, note: fmt.Sprintf("the PR's test files call helpers their package does not define at the merge commit: %s declares them as the PR's own head %s (refs/pull/%d/head) does, in both states", strings.Join(paths, ", "), head[:12], t.PR)}
}

// read is a test file's content: a written helper's, else the file at rev.
func (h *prHelpers) read(ctx context.Context, repo, rev, path string) ([]byte, error) {
	if h != nil {
		if text, ok := h.files[path]; ok {
			return []byte(text), nil
		}
	}
	return show(ctx, repo, rev, path)
}
