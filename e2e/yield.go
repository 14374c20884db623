// Package e2e drives the curate binary end to end on the real repositories
// in ../shared/repos, as a user would: clone a bundle, mine, build,
// validate, and read the yield funnel.
package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	gitcmd "curate/internal/git"
	"curate/pipeline"
	"curate/pipeline/stats"
	"curate/store"
)

// Since is the start of the yield window the issue fixes.
const Since = "2023-01-01"

// MinPRs is how many PRs a repository contributes at least: when fewer
// qualifying PRs were merged since Since, the newest MinPRs are taken.
const MinPRs = 20

// ModuleRoot finds the folder holding go.mod, from the working directory up.
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}

// Bundles lists the repository bundles of ../shared/repos (beside the
// module root), by repo "owner/name"; empty when the folder is absent.
// CURATE_YIELD_GITDIRS=DIR adds the git folders DIR/owner+name/repo (a
// mirror of repositories never tried, cloned like a bundle).
func Bundles(root string) (map[string]string, error) {
	out, err := bundleFiles(root)
	if err != nil {
		return nil, err
	}
	if dir := os.Getenv("CURATE_YIELD_GITDIRS"); dir != "" {
		paths, err := filepath.Glob(filepath.Join(dir, "*+*", "repo"))
		if err != nil {
			return nil, err
		}
		for _, p := range paths {
			owner, repo, _ := strings.Cut(filepath.Base(filepath.Dir(p)), "+")
			out[owner+"/"+repo] = p
		}
	}
	return out, nil
}

// bundleFiles reads CURATE_SHARED_REPOS when set (as the cli tests do:
// a worktree may sit away from ../shared), else ../shared/repos.
func bundleFiles(root string) (map[string]string, error) {
	dir := os.Getenv("CURATE_SHARED_REPOS")
	if dir == "" {
		dir = filepath.Join(root, "..", "shared", "repos")
	}
	paths, err := filepath.Glob(filepath.Join(dir, "*+*.bundle"))
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, p := range paths {
		name := strings.TrimSuffix(filepath.Base(p), ".bundle")
		owner, repo, _ := strings.Cut(name, "+")
		out[owner+"/"+repo] = p
	}
	return out, nil
}

// Curate runs the curate binary against one workspace.
type Curate struct {
	Bin, Workspace string
}

// Run runs curate with args and returns stdout; exit code 3 (some run not
// ok) is not an error.
func (c *Curate) Run(ctx context.Context, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, c.Bin, append([]string{"-w", c.Workspace}, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 3 {
		err = nil
	}
	if err != nil {
		return stdout.Bytes(), fmt.Errorf("curate %s: %v\n%s", strings.Join(args, " "), err, tail(stderr.String(), 4000))
	}
	return stdout.Bytes(), nil
}

// CloneBundle clones a bundle as a user's clone looks: origin pointing at
// the forge.
func CloneBundle(ctx context.Context, bundle, repo, dir string) error {
	for _, args := range [][]string{
		{"clone", "-q", bundle, dir},
		{"-C", dir, "remote", "set-url", "origin", "https://github.com/" + repo + ".git"},
	} {
		if err := gitcmd.Run(ctx, "", nil, args...); err != nil {
			return err
		}
	}
	return nil
}

// minedTask is what selection reads of `curate mine --json`.
type minedTask struct {
	ID       string             `json:"id"`
	PR       int                `json:"pr"`
	Features map[string]float64 `json:"features"`
}

// MineQualifying mines the clone with --preset none and returns the ids of
// the PRs that change tests and at least one source file: those merged
// since Since, or the newest MinPRs when fewer (newest = highest PR
// number), at most limit (0 = all).
func MineQualifying(ctx context.Context, c *Curate, clone string, limit int) ([]string, error) {
	pick := func(args ...string) ([]minedTask, error) {
		out, err := c.Run(ctx, append([]string{"mine", "git", clone, "--preset", "none", "--json"}, args...)...)
		if err != nil {
			return nil, err
		}
		var all, keep []minedTask
		if err := json.Unmarshal(out, &all); err != nil {
			return nil, fmt.Errorf("mine --json: %w", err)
		}
		for _, m := range all {
			if m.Features[pipeline.FeatTestFiles] >= 1 && m.Features[pipeline.FeatFilesChanged] >= 1 {
				keep = append(keep, m)
			}
		}
		sort.Slice(keep, func(i, j int) bool { return keep[i].PR > keep[j].PR })
		return keep, nil
	}
	keep, err := pick("--since", Since)
	if err != nil {
		return nil, err
	}
	if len(keep) < MinPRs {
		if keep, err = pick(); err != nil {
			return nil, err
		}
		keep = keep[:min(len(keep), MinPRs)]
	}
	if limit > 0 && len(keep) > limit {
		keep = keep[:limit]
	}
	ids := make([]string, len(keep))
	for i, m := range keep {
		ids[i] = m.ID
	}
	return ids, nil
}

// Yield is one repository's result.
type Yield struct {
	Repo   string
	IDs    []string
	Funnel stats.RepoFunnel
	Tasks  map[string]*pipeline.Task
	Runs   map[string][]*pipeline.Run // each task's runs, newest first
	Wall   time.Duration              // build and validation
	// EnvCheck is the environment check's error, when it failed.
	EnvCheck string
}

// RunYield checks the repository's environment (unless CURATE_YIELD_AT is
// merge), builds and validates ids with the defaults (no [repos] profile,
// no --base-image) and reads the funnel of exactly those tasks.
func RunYield(ctx context.Context, c *Curate, repo string, ids []string) (*Yield, error) {
	start := time.Now()
	y := &Yield{Repo: repo, IDs: ids, Tasks: map[string]*pipeline.Task{}, Runs: map[string][]*pipeline.Run{}}
	build := []string{"build"}
	at := os.Getenv("CURATE_YIELD_AT") // merge, snapshot, auto (the default)
	if at != "" {
		build = append(build, "--at", at)
	}
	if at != "merge" {
		// As the workflow in docs/mining.md: the repository's environment check
		// first, so auto mirrors the PRs that mirror onto its snapshot.
		// A failed check is a result, not the end: auto then builds each PR at
		// its merge commit, as it does for a user (the check's error is kept in
		// the repository's record and shown by curate show).
		if _, err := c.Run(ctx, "env", "check", repo); err != nil {
			y.EnvCheck = err.Error()
		}
	}
	if _, err := c.Run(ctx, append(build, ids...)...); err != nil {
		return nil, err
	}
	var built []string
	st, err := openStore(ctx, c.Workspace)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	for _, id := range ids {
		t, err := st.Task(ctx, id)
		if err != nil {
			return nil, err
		}
		if t.TaskDir != "" {
			built = append(built, id)
		}
	}
	if len(built) > 0 {
		args := append([]string{"validate", "--mode", "nop,oracle,gold", "--concurrency", "2"}, built...)
		if _, err := c.Run(ctx, args...); err != nil {
			return nil, err
		}
	}
	y.Wall = time.Since(start)
	var tasks []*pipeline.Task
	var runs []*pipeline.Run
	for _, id := range ids {
		t, err := st.Task(ctx, id)
		if err != nil {
			return nil, err
		}
		rs, err := st.Runs(ctx, id)
		if err != nil {
			return nil, err
		}
		y.Tasks[id], y.Runs[id] = t, rs
		tasks = append(tasks, t)
		runs = append(runs, rs...)
	}
	f := stats.ComputeFunnel(tasks, runs, repo)
	if len(f.Repos) == 1 {
		y.Funnel = f.Repos[0]
	}
	return y, nil
}

func openStore(ctx context.Context, ws string) (*store.Store, error) {
	return store.Open(ctx, filepath.Join(ws, ".curate", "curate.db"))
}

// Unsettled lists the tasks that reached no verdict a curator can act on:
// neither valid nor invalid with a named class (unclassified, no class,
// not validated), each with what it has.
func (y *Yield) Unsettled() []string {
	var out []string
	for _, id := range y.IDs {
		t := y.Tasks[id]
		switch {
		case t.Status == pipeline.StatusValid:
		case t.Status == pipeline.StatusInvalid && t.Failure != nil && t.Failure.Class != pipeline.ClassUnclassified:
		case t.Status == pipeline.StatusRejected && len(t.Reasons) > 0: // build refused, with its reason
		default:
			what := string(t.Status)
			if t.Failure != nil {
				what += " " + t.Failure.Class + ": " + t.Failure.Evidence
			}
			out = append(out, id+" ("+what+")")
		}
	}
	return out
}

// TableHeader and Row print the funnel table of docs/dev/yield.md.
const TableHeader = "| Repository | PRs | Built | NOP 0 | Oracle 1 | ≥1 FAIL_TO_PASS | Valid | no_fail_to_pass | Environment classes | Other classes |\n" +
	"|---|---|---|---|---|---|---|---|---|---|"

// Row is the repository's line of the funnel table.
func (y *Yield) Row() string {
	f := y.Funnel
	var env, other []string
	for _, c := range f.Failures {
		s := fmt.Sprintf("%s %d", c.Class, c.Count)
		switch c.Class {
		case pipeline.ClassDepsMissing, pipeline.ClassDepsUnreachable, pipeline.ClassToolchainMismatch, pipeline.ClassOOM, pipeline.ClassDiskLimit:
			env = append(env, s)
		default:
			other = append(other, s)
		}
	}
	for _, c := range f.NotBuilt {
		other = append(other, fmt.Sprintf("not built (%s) %d", c.Class, c.Count))
	}
	if f.NotValidated > 0 {
		other = append(other, fmt.Sprintf("not validated %d", f.NotValidated))
	}
	dash := func(s []string) string {
		if len(s) == 0 {
			return "-"
		}
		return strings.Join(s, ", ")
	}
	return fmt.Sprintf("| %s | %d | %d | %d | %d | %d | %d | %d | %s | %s |", y.Repo, f.Mined, f.Built, f.Nop0, f.Oracle1,
		f.FailToPass, f.Valid, f.NoFailToPass.Count, dash(env), dash(other))
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}
