package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"curate/pipeline/source"
	"curate/workspace"
)

// Progress is how far a long operation has got: Done of Total items in
// its current Stage (Total 0: not known yet). Item names the last one.
// Operations call their Progress option (nil: nobody listens) from any
// goroutine; the workbench's jobs list turns the calls into counts, a
// rate and an ETA.
type Progress struct {
	Stage       string
	Done, Total int
	Item        string
	// Repo is the repository Item is of, in an operation over several
	// (a campaign): the Repos screen shows each one's step.
	Repo string
}

// ProgressFunc receives Progress; it must be cheap and safe for
// concurrent calls.
type ProgressFunc func(Progress)

func (f ProgressFunc) report(stage string, done, total int, item string) {
	if f != nil {
		f(Progress{Stage: stage, Done: done, Total: total, Item: item})
	}
}

// RebuildRepoFunc is the "rebuild a repo" job of the workbench: rebuild
// what changed for repo's tasks and rerun its failures, reporting
// progress, and answer one line saying what changed ("rebuilt 4 tasks of
// acme/calc, reran 3: 2 now valid"). The repos operation (app/repo.go)
// provides it; cli/workbench_services.go wires it as
// Services.RebuildRepo.
type RebuildRepoFunc func(ctx context.Context, repo string, progress ProgressFunc) (summary string, err error)

// Import kinds ImportPath chooses between.
const (
	ImportKindHarbor   = "harbor"
	ImportKindSWEbench = "swebench"
	ImportKindManifest = "manifest"
)

// ImportKindOf says which import reads path: a folder holds Harbor task
// dirs, a .jsonl file is SWE-bench JSONL, a .json file a selection
// manifest.
func ImportKindOf(path string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("import %s: %w", path, err)
	}
	switch ext := strings.ToLower(filepath.Ext(path)); {
	case fi.IsDir():
		return ImportKindHarbor, nil
	case ext == ".jsonl":
		return ImportKindSWEbench, nil
	case ext == ".json":
		return ImportKindManifest, nil
	}
	return "", fmt.Errorf("import %s: want a folder of Harbor task dirs, a SWE-bench .jsonl or a manifest .json", path)
}

// ImportPath imports one path with the import its kind calls for (see
// ImportKindOf), as `curate import harbor|swebench|manifest PATH` does.
func ImportPath(ctx context.Context, ws *workspace.Workspace, path string, o ImportOptions) (*ImportSummary, error) {
	kind, err := ImportKindOf(path)
	if err != nil {
		return nil, err
	}
	switch kind {
	case ImportKindHarbor:
		return ImportHarbor(ctx, ws, []string{path}, o)
	case ImportKindSWEbench:
		return ImportSWEbench(ctx, ws, []string{path}, o)
	}
	sum, _, err := ImportManifest(ctx, ws, path, o)
	return sum, err
}

// MineSource says what a mine of s reads: a local clone when s is a
// folder, else a GitHub repository named OWNER/REPO.
func MineSource(s string) (local bool, err error) {
	if fi, err := os.Stat(s); err == nil && fi.IsDir() {
		return true, nil
	}
	if source.ValidRepo(s) {
		return false, nil
	}
	return false, fmt.Errorf("mine %q: want a local clone's folder or OWNER/REPO on GitHub", s)
}
