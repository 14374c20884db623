package app

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"curate/pipeline"
	"curate/pipeline/envgen"
	_ "curate/pipeline/envgen/languages" // every language planner registers itself
	"curate/pipeline/filter"
	"curate/pipeline/patch"
	"curate/pipeline/validate"
	"curate/workspace"
)

// BuildResult is the outcome of building one task.
type BuildResult struct {
	ID       string `json:"id"`
	Status   string `json:"status"`
	TaskDir  string `json:"task_dir,omitempty"`
	Digest   string `json:"digest,omitempty"`
	Language string `json:"language,omitempty"`
	Image    string `json:"base_image,omitempty"`
	// Strategy is how the task was built (merge or snapshot); Snapshot
	// the commit a snapshot build mirrors onto; Note why auto chose.
	Strategy string `json:"strategy,omitempty"`
	Snapshot string `json:"snapshot,omitempty"`
	Method   string `json:"mirror_method,omitempty"`
	Class    string `json:"class,omitempty"` // patch_conflict
	// RepoImage is the repository environment image the task stands on.
	RepoImage string   `json:"repo_image,omitempty"`
	Note      string   `json:"note,omitempty"`
	Reasons   []string `json:"reasons,omitempty"`
	Error     string   `json:"error,omitempty"`
}

// EnvironmentNotesKey is the Task.Extra key holding why the environment
// is what it is (envgen's notes); `curate show` prints them.
const EnvironmentNotesKey = "environment_notes"

// BuildOptions say what to build and how.
type BuildOptions struct {
	// Accepted builds (or rebuilds) every mined candidate that passed its
	// filter and is not excluded; else IDs (prefixes allowed) are built.
	Accepted bool
	IDs      []string
	// BaseImage overrides [docker] base_image.
	BaseImage string
	// MaxFileBytes rejects PRs that change a larger file; 0 = no limit.
	MaxFileBytes int64
	// At is the build strategy: merge, snapshot, snapshot:REV or auto;
	// "" = [repos] at, else auto.
	At string
	// Progress hears of every task built (nil: nobody).
	Progress ProgressFunc
}

// ErrNoAccepted is Build with Accepted when no candidate qualifies.
var ErrNoAccepted = errors.New("no task of status candidate: run `curate mine git PATH` first, or see `curate list --filter status=rejected` for why")

// Build turns mined candidates into Harbor task dirs under tasks/ and
// records each one as built or rejected (with reasons). A task that cannot
// be built for another reason comes back with Status "error".
func Build(ctx context.Context, ws *workspace.Workspace, o BuildOptions) ([]BuildResult, error) {
	tasks, err := buildTargets(ctx, ws, o)
	if err != nil {
		return nil, err
	}
	fc, _, err := MineFilter(ws, MineOptions{Preset: "none"})
	if err != nil {
		return nil, err
	}
	if _, _, err := ParseAt(o.At); err != nil {
		return nil, fmt.Errorf("--at %w", err)
	}
	cfg := buildConfig(ctx, ws, fc)
	cfg.BaseImage, cfg.MaxFileBytes = o.BaseImage, o.MaxFileBytes
	var results []BuildResult
	for _, t := range tasks {
		if err := ctx.Err(); err != nil {
			return results, err
		}
		r, err := buildAt(ctx, ws, t, cfg, o.At)
		if err != nil {
			return results, err
		}
		results = append(results, r)
		o.Progress.report("build", len(results), len(tasks), r.ID)
	}
	return results, nil
}

// buildConfig is what every build on ws uses: curate.toml's [docker] and
// [repos], the host's network settings (CA bundle), and the filter fc.
func buildConfig(ctx context.Context, ws *workspace.Workspace, fc *filter.Config) envgen.Config {
	return envgen.Config{DockerBase: ws.Config.Docker.BaseImage, LanguageImages: ws.Config.Docker.LanguageImages,
		Repos: ws.Config.Repos, Filter: fc, Network: envgen.HostNetwork(ctx, ws.Config.Docker.CABundle), Scratch: ws.TmpPath()}
}

// BuildPlan are the tasks Build would build (build --dry-run), changing
// nothing.
func BuildPlan(ctx context.Context, ws *workspace.Workspace, o BuildOptions) ([]*pipeline.Task, error) {
	return buildTargets(ctx, ws, o)
}

// buildTargets loads the tasks Build is asked for, with their bodies.
func buildTargets(ctx context.Context, ws *workspace.Workspace, o BuildOptions) ([]*pipeline.Task, error) {
	if !o.Accepted {
		return TasksByID(ctx, ws, o.IDs)
	}
	all, err := ws.Store.Tasks(ctx)
	if err != nil {
		return nil, err
	}
	var tasks []*pipeline.Task
	for _, t := range all {
		if (t.Source == "git" || t.Source == "github") && (t.Status == pipeline.StatusCandidate || t.Status == pipeline.StatusBuilt) && !t.Labels.Excluded {
			full, err := ws.Store.Task(ctx, t.ID) // listings leave out the body
			if err != nil {
				return nil, err
			}
			tasks = append(tasks, full)
		}
	}
	if len(tasks) == 0 {
		return nil, ErrNoAccepted
	}
	return tasks, nil
}

// buildAt builds t with the strategy at (o.At; "" = the repo's [repos]
// at, else auto). auto mirrors onto the snapshot when the repo's env check
// passed there and builds at the merge commit when the PR does not mirror.
func buildAt(ctx context.Context, ws *workspace.Workspace, t *pipeline.Task, cfg envgen.Config, at string) (BuildResult, error) {
	if at == "" {
		at = ws.Config.Repos[t.Repo].At
	}
	strategy, rev, _ := ParseAt(at)
	if strategy == "" {
		strategy = pipeline.AtAuto
	}
	note := ""
	if strategy != pipeline.AtMerge && t.SourcePath != "" {
		st, err := repoSnapshot(ctx, ws, t.Repo, t.SourcePath, rev)
		if err != nil {
			return buildError(ctx, ws, t, err)
		}
		switch {
		case strategy == pipeline.AtSnapshot:
			cfg.Snapshot = st.Snapshot
		case st.EnvCheck.Mirrors() && st.EnvCheck.Snapshot == st.Snapshot:
			if why := touchedFailures(ctx, t, cfg, st.EnvCheck); why != "" {
				note = "auto: " + why + ": built at the merge commit"
				break
			}
			cfg.Snapshot = st.Snapshot
		case st.EnvCheck == nil:
			note = "auto: no env check of " + t.Repo + " yet (curate env check): built at the merge commit"
		default:
			note = "auto: the env check of " + t.Repo + " did not pass (" + st.EnvCheck.String() + "): built at the merge commit"
		}
	}
	r, err := buildOne(ctx, ws, t, cfg)
	// auto falls back to the merge commit whenever the snapshot build is
	// refused: the PR does not mirror, or its test files are gone at the
	// snapshot (moved or deleted since).
	if err == nil && strategy == pipeline.AtAuto && cfg.Snapshot != "" && r.Status == string(pipeline.StatusRejected) {
		why := "the PR does not mirror onto the snapshot"
		for _, reason := range r.Reasons { // "build: patch_conflict: the PR does not reverse at ...: f.go hunk #3"
			if _, detail, ok := strings.Cut(reason, patch.ConflictClass+": "); ok {
				why = detail
			} else if r.Class != patch.ConflictClass {
				why = strings.TrimPrefix(reason, "build: ")
				break
			}
		}
		cfg.Snapshot = ""
		if r, err = buildOne(ctx, ws, t, cfg); err == nil {
			note = "auto: " + why + ": built at the merge commit"
		}
	}
	r.Note = note
	return r, err
}

// buildOne builds t, re-scores it (the language may have changed) and
// stores it. Only store and profile errors are returned.
func buildOne(ctx context.Context, ws *workspace.Workspace, t *pipeline.Task, cfg envgen.Config) (BuildResult, error) {
	// The statement goes into the staged dir, so the dir that replaces
	// the old one is whole when the row is written.
	cfg.Finish = func(dir string) error {
		_, err := WriteStatement(ctx, ws, t, dir)
		return err
	}
	res, err := envgen.Build(ctx, t, ws.TasksPath(), cfg)
	r := BuildResult{ID: t.ID}
	if t.Extra == nil {
		t.Extra = map[string]any{}
	}
	if t.Failure != nil && t.Failure.Class == patch.ConflictClass {
		t.Failure = nil
	}
	switch reasons, rejected := patch.IsRejection(err); {
	case err == nil:
		same := t.Digest == res.Digest && t.TaskDir == res.Dir
		if !same {
			delete(t.Extra, pipeline.ExtraBuildNotes) // another image: its build decides anew
		}
		// A rebuild that made the same files keeps the verdict its runs
		// gave: they ran on exactly these files.
		if !same || (t.Status != pipeline.StatusValid && t.Status != pipeline.StatusInvalid) {
			t.Status = pipeline.StatusBuilt
		}
		t.TaskDir, t.Digest, t.Reasons = res.Dir, res.Digest, nil
		t.Language = res.Language
		t.Extra[EnvironmentNotesKey] = res.Notes
		setDecisions(t, res.Decisions)
		recordStrategy(t, res.Strategy, res.Snapshot, res.Method)
		delete(t.Extra, pipeline.ExtraRepoImage)
		if l, ok, err := validate.ReadLayers(filepath.Join(res.Dir, "environment")); err == nil && ok {
			t.Extra[pipeline.ExtraRepoImage] = validate.RepoImageTag(ws.Root, l.Key)
			r.RepoImage = validate.RepoImageTag(ws.Root, l.Key)
		}
		r.Status, r.TaskDir, r.Digest, r.Language, r.Image = string(pipeline.StatusBuilt), res.Dir, res.Digest, res.Language, res.Image
		r.Strategy, r.Snapshot, r.Method = res.Strategy, res.Snapshot, res.Method
	case rejected:
		t.Status, t.TaskDir, t.Digest = pipeline.StatusRejected, "", ""
		t.Reasons = append(withoutBuildReasons(t.Reasons), prefixAll("build: ", reasons)...)
		r.Status, r.Reasons = string(t.Status), t.Reasons
		if len(reasons) > 0 && strings.HasPrefix(reasons[0], patch.ConflictClass+":") {
			r.Class = patch.ConflictClass
			t.Failure = &pipeline.Failure{Class: patch.ConflictClass, Evidence: strings.TrimPrefix(reasons[0], patch.ConflictClass+": "),
				Suggestion: fmt.Sprintf("[repos.%q] at = \"merge\" (or curate build --at merge %s)", t.Repo, t.ID)}
			recordStrategy(t, pipeline.AtSnapshot, cfg.Snapshot, "")
		}
	default:
		return buildError(ctx, ws, t, err)
	}
	delete(t.Extra, pipeline.ExtraBuildError)
	if err := ScoreWith(ws, t); err != nil {
		return r, err
	}
	return r, ws.Store.UpsertTasks(ctx, []*pipeline.Task{t})
}

// buildError is the result of a build that stopped outside the checks,
// recorded on t (pipeline.ExtraBuildError) unless it was cancelled; only
// a store error is returned.
func buildError(ctx context.Context, ws *workspace.Workspace, t *pipeline.Task, err error) (BuildResult, error) {
	r := BuildResult{ID: t.ID, Status: "error", Error: err.Error()}
	if ctx.Err() != nil {
		return r, nil // stopped, not failed: the last record stands
	}
	if t.Extra == nil {
		t.Extra = map[string]any{}
	}
	t.Extra[pipeline.ExtraBuildError] = strings.SplitN(strings.TrimSpace(err.Error()), "\n", 2)[0]
	return r, ws.Store.UpsertTasks(ctx, []*pipeline.Task{t})
}

// recordStrategy notes on t how it was built (Task.Extra: shown by show,
// list and the workbench without reading task.toml, which says the same
// for exported tasks).
func recordStrategy(t *pipeline.Task, strategy, snapshot, method string) {
	t.Extra[pipeline.ExtraBuildStrategy] = strategy
	delete(t.Extra, pipeline.ExtraSnapshot)
	delete(t.Extra, pipeline.ExtraMirrorMethod)
	if snapshot != "" {
		t.Extra[pipeline.ExtraSnapshot] = snapshot
	}
	if method != "" {
		t.Extra[pipeline.ExtraMirrorMethod] = method
	}
}

// BuildStrategy is how t was last built: merge, snapshot, or "" (never
// built by this version).
func BuildStrategy(t *pipeline.Task) string {
	s, _ := t.Extra[pipeline.ExtraBuildStrategy].(string)
	return s
}

// StrategyLine says how a task was built: "merge", or "snapshot adbc8813
// (3way)".
func StrategyLine(strategy, snapshot, method string) string {
	switch {
	case strategy == "":
		return pipeline.AtMerge
	case snapshot == "":
		return strategy
	}
	s := strategy + " " + ShortRev(snapshot)
	if method != "" {
		s += " (" + method + ")"
	}
	return s
}

// TaskStrategy is StrategyLine of a task ("" when no build recorded
// one: imported tasks, or built before strategies existed).
func TaskStrategy(t *pipeline.Task) string {
	if BuildStrategy(t) == "" {
		return ""
	}
	snap, _ := t.Extra[pipeline.ExtraSnapshot].(string)
	method, _ := t.Extra[pipeline.ExtraMirrorMethod].(string)
	return StrategyLine(BuildStrategy(t), snap, method)
}

// ShortRev is a commit's first 8 hex digits.
func ShortRev(s string) string {
	if len(s) > 8 {
		return s[:8]
	}
	return s
}

// EnvironmentNotes are the notes the last build recorded on t (fresh, or
// decoded from the store), then what its image build decided, as the last
// validation run printed it ("image build: ...", pipeline.ExtraBuildNotes).
func EnvironmentNotes(t *pipeline.Task) []string {
	out := slices.Clone(pipeline.ExtraStrings(t, EnvironmentNotesKey))
	for _, n := range pipeline.BuildNotes(t) {
		out = append(out, "image build: "+n)
	}
	return out
}

func prefixAll(p string, ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = p + s
	}
	return out
}

// withoutBuildReasons drops the reasons of an earlier build attempt.
func withoutBuildReasons(rs []string) []string {
	var out []string
	for _, r := range rs {
		if !strings.HasPrefix(r, "build: ") {
			out = append(out, r)
		}
	}
	return out
}
