package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"curate/internal/atomicfile"
	gitcmd "curate/internal/git"
	"curate/pipeline"
	"curate/workspace"
)

// RepoState is what curate records about one repository outside the
// task rows: the snapshot its mirrored tasks stand on and the last
// environment check. It lives in .curate/repos/<owner>+<name>.json (a
// file, not a table: it is per repository, small, and needs no store
// migration; `curate repo show` reads it through RepoStateOf).
type RepoState struct {
	Repo string `json:"repo"`
	// Snapshot is the commit snapshot builds mirror onto; SnapshotFrom
	// says where it came from; RecordedAt when it was pinned.
	Snapshot     string    `json:"snapshot,omitempty"`
	SnapshotFrom string    `json:"snapshot_from,omitempty"`
	RecordedAt   time.Time `json:"recorded_at,omitempty"`
	EnvCheck     *EnvCheck `json:"env_check,omitempty"`
}

// EnvCheck is one run of a repository's whole test suite in its
// environment image at the snapshot (SWE-smith keeps an environment when
// over 80% of the tests pass).
type EnvCheck struct {
	Snapshot string    `json:"snapshot"`
	Image    string    `json:"image,omitempty"`
	Passed   int       `json:"passed"`
	Total    int       `json:"total"`
	OK       bool      `json:"ok"`
	Error    string    `json:"error,omitempty"`
	At       time.Time `json:"at"`
	// Failed counts the suite's failing tests; Failing names the first
	// MaxEnvFailures of them, each with its first error line.
	Failed  int          `json:"failed,omitempty"`
	Failing []EnvFailure `json:"failing,omitempty"`
	// FailuresAccepted: the curator took the failing tests as known
	// failures (curate env accept), so PRs whose tests do not touch them
	// mirror onto the snapshot although the check did not pass.
	FailuresAccepted bool `json:"failures_accepted,omitempty"`
	// Scope is "touched" (the test files the mined PRs change) or "all";
	// Files how many test files the suite was given.
	Scope string `json:"scope,omitempty"`
	Files int    `json:"files,omitempty"`
	// Budget is how long the suite could run; TimedOut says it ran out,
	// and LeftOut names the test files that gave no result by then (their
	// PRs build at the merge commit).
	Budget   string   `json:"budget,omitempty"`
	TimedOut bool     `json:"timed_out,omitempty"`
	LeftOut  []string `json:"left_out,omitempty"`
}

// EnvFailure is one test that failed in an environment check.
type EnvFailure struct {
	Test  string `json:"test"`
	Error string `json:"error,omitempty"` // its first error line, when the log shows one
}

// EnvCheckThreshold is the share of passing tests an environment needs.
const EnvCheckThreshold = 0.8

// String is the check in one line: "ok 95/100 (95%)".
func (c *EnvCheck) String() string {
	if c == nil {
		return "not run"
	}
	word := "failed"
	if c.OK {
		word = "ok"
	}
	s := fmt.Sprintf("%s %d/%d", word, c.Passed, c.Total)
	if c.Total > 0 {
		s += fmt.Sprintf(" (%.0f%%)", 100*float64(c.Passed)/float64(c.Total))
	}
	if c.Error != "" {
		s += ": " + c.Error
	}
	if c.TimedOut {
		s += fmt.Sprintf(", stopped at its %s budget with %d of %d test files left out", c.Budget, len(c.LeftOut), c.Files)
	}
	if !c.OK && c.FailuresAccepted {
		s += fmt.Sprintf(", %d failing accepted as known failures", c.Failed)
	}
	return s
}

// Mirrors says whether auto builds may mirror PRs onto the check's
// snapshot: it passed, or its failures were accepted.
func (c *EnvCheck) Mirrors() bool {
	return c != nil && (c.OK || c.FailuresAccepted && c.Total > 0 && c.Error == "")
}

func repoStatePath(ws *workspace.Workspace, repo string) string {
	return filepath.Join(ws.Root, workspace.StateDir, "repos", strings.ReplaceAll(repo, "/", "+")+".json")
}

// RepoStateOf reads a repository's state (empty when none is recorded).
func RepoStateOf(ws *workspace.Workspace, repo string) (*RepoState, error) {
	st := &RepoState{Repo: repo}
	data, err := os.ReadFile(repoStatePath(ws, repo))
	if errors.Is(err, os.ErrNotExist) {
		return st, nil
	} else if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, st); err != nil {
		return nil, fmt.Errorf("%s: %w", repoStatePath(ws, repo), err)
	}
	return st, nil
}

func saveRepoState(ws *workspace.Workspace, st *RepoState) error {
	p := repoStatePath(ws, st.Repo)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(p, append(data, '\n'), 0o644)
}

// ParseAt reads a --at value: merge, auto, snapshot or snapshot:REV.
func ParseAt(s string) (strategy, rev string, err error) {
	strategy, rev, _ = strings.Cut(s, ":")
	switch {
	case strategy == pipeline.AtSnapshot:
		return strategy, rev, nil
	case (strategy == pipeline.AtMerge || strategy == pipeline.AtAuto || strategy == "") && rev == "":
		return strategy, "", nil
	}
	return "", "", fmt.Errorf("%q: want merge, snapshot, snapshot:REV or auto", s)
}

// repoSnapshot resolves the snapshot of repo: rev when given (--at
// snapshot:REV), else [repos] snapshot, else the one recorded, else the
// clone's default branch tip (then recorded, so later builds mirror onto
// the same commit).
func repoSnapshot(ctx context.Context, ws *workspace.Workspace, repo, clone, rev string) (*RepoState, error) {
	st, err := RepoStateOf(ws, repo)
	if err != nil {
		return nil, err
	}
	from := ""
	switch {
	case rev != "":
		from = "--at snapshot:" + rev
	case ws.Config.Repos[repo].Snapshot != "":
		rev, from = ws.Config.Repos[repo].Snapshot, "[repos] snapshot"
	case st.Snapshot != "":
		return st, nil
	default:
		rev, from = defaultBranch(ctx, clone), "the default branch tip"
	}
	out, err := gitcmd.Output(ctx, clone, "rev-parse", "--verify", "--end-of-options", rev+"^{commit}")
	if err != nil {
		return nil, fmt.Errorf("snapshot of %s: %s: %w", repo, rev, err)
	}
	sha := strings.TrimSpace(string(out))
	if sha != st.Snapshot {
		st.Snapshot, st.SnapshotFrom, st.RecordedAt = sha, from, time.Now().UTC()
		if err := saveRepoState(ws, st); err != nil {
			return nil, err
		}
	}
	return st, nil
}

// defaultBranch names the clone's default branch (origin's HEAD, else
// the checked-out branch).
func defaultBranch(ctx context.Context, clone string) string {
	if out, err := gitcmd.Output(ctx, clone, "symbolic-ref", "-q", "refs/remotes/origin/HEAD"); err == nil {
		return strings.TrimSpace(string(out))
	}
	return "HEAD"
}
