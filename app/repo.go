package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	cerrdefs "github.com/containerd/errdefs"

	"curate/pipeline"
	"curate/pipeline/stats"
	"curate/pipeline/validate"
	"curate/workspace"
)

// RepoProfile is one repository as `curate repo list/show` and the
// workbench's Repos screen see it: how its tasks are built (the
// [repos."owner/name"] profile in curate.toml, else what the builds
// detected and recorded in their environment notes), its images and its
// yield so far.
type RepoProfile struct {
	Repo     string `json:"repo"`
	Language string `json:"language"`
	// Profile is curate.toml's [repos."owner/name"] table (nil: none).
	Profile *workspace.RepoConfig `json:"profile"`
	// Toolchain, Install and TestCommand come from the profile when it sets
	// them (Source "curate.toml"), else from the build notes of the repo's
	// tasks, the most common first (Source "detected").
	Toolchain     []string `json:"toolchain"`
	Install       []string `json:"install"`
	InstallSource string   `json:"install_source"`
	TestCommand   string   `json:"test_command"`
	TestSource    string   `json:"test_source"`
	// Images are the environment images of the repo's built tasks, one per
	// environment digest.
	Images []RepoImage `json:"images"`

	// Snapshot is the commit snapshot builds mirror onto; EnvCheck the
	// last run of the suite there (RepoState, curate env check); RepoImages
	// the shared repository images the repo's tasks stand on.
	Snapshot   string      `json:"snapshot"`  // "": none recorded
	EnvCheck   *EnvCheck   `json:"env_check"` // null: not run
	RepoImages []RepoImage `json:"repo_images"`

	// Funnel is the repo's yield so far; Failures the invalid tasks by
	// class with their evidence and suggested fixes (no_fail_to_pass, a
	// true negative, last).
	Funnel   stats.RepoFunnel `json:"funnel"`
	Failures []FailureGroup   `json:"failures"`
}

// Failing counts the repo's invalid tasks, true negatives
// (no_fail_to_pass) left out.
func (p *RepoProfile) Failing() int {
	n := 0
	for _, g := range p.Failures {
		if g.Class != pipeline.ClassNoFailToPass {
			n += len(g.Tasks)
		}
	}
	return n
}

// RepoImage is one environment image: its tag, how many tasks use it, and
// whether the engine has it ("present", "missing", or "unknown" when no
// engine was asked or none answered).
type RepoImage struct {
	Tag    string `json:"tag"`
	Digest string `json:"env_digest"`
	Tasks  int    `json:"tasks"`
	State  string `json:"state"`
}

// FailureGroup is a repo's invalid tasks of one class: which, the evidence
// lines their logs showed, and the distinct suggested [repos] lines.
type FailureGroup struct {
	Class       string     `json:"class"`
	Tasks       []string   `json:"tasks"`
	Evidence    []Evidence `json:"evidence"`
	Suggestions []string   `json:"suggestions"`
}

// Evidence is one task's evidence line.
type Evidence struct {
	TaskID string `json:"task_id"`
	Line   string `json:"line"`
}

// RepoOptions say which repos to profile and whether to ask the engine
// about images.
type RepoOptions struct {
	Repo   string // "" = every repo with a mined task
	Images bool   // inspect images on the workspace's engine
}

// ErrNoRepo is a repo with no mined task in the workspace.
var ErrNoRepo = errors.New("no mined task of that repo in this workspace (see `curate repo list`)")

// RepoProfiles profiles the workspace's repositories (mined tasks only),
// sorted by name.
func RepoProfiles(ctx context.Context, ws *workspace.Workspace, o RepoOptions) ([]*RepoProfile, error) {
	tasks, err := ws.Store.Tasks(ctx)
	if err != nil {
		return nil, err
	}
	runs, err := ws.Store.Runs(ctx, "")
	if err != nil {
		return nil, err
	}
	out := ComputeRepoProfiles(tasks, runs, ws.Config.Repos, o.Repo)
	if o.Repo != "" && len(out) == 0 {
		return nil, fmt.Errorf("repo %q: %w", o.Repo, ErrNoRepo)
	}
	states := imageStates(ctx, ws, o.Images)
	for _, p := range out {
		p.Images = repoImages(ws.Root, tasks, p.Repo, states)
		p.RepoImages = sharedRepoImages(tasks, p.Repo, states)
		st, err := RepoStateOf(ws, p.Repo)
		if err != nil {
			return nil, err
		}
		p.SetState(st)
	}
	return out, nil
}

// SetState shows a repository's recorded snapshot and env check.
func (p *RepoProfile) SetState(st *RepoState) {
	if p != nil && st != nil {
		p.Snapshot, p.EnvCheck = st.Snapshot, st.EnvCheck
	}
}

// sharedRepoImages lists the repository images (curate-repo:<hash>) the
// repo's built tasks stand on, with how many tasks use each.
func sharedRepoImages(tasks []*pipeline.Task, repo string, state func(string) string) []RepoImage {
	count := map[string]int{}
	var order []string
	for _, t := range tasks {
		if t.Repo != repo || !t.Mined() {
			continue
		}
		tag, _ := t.Extra[pipeline.ExtraRepoImage].(string)
		if tag == "" {
			continue
		}
		if count[tag] == 0 {
			order = append(order, tag)
		}
		count[tag]++
	}
	out := make([]RepoImage, 0, len(order))
	for _, tag := range order {
		img := RepoImage{Tag: tag, Tasks: count[tag], State: "unknown"}
		if state != nil {
			img.State = state(tag)
		}
		out = append(out, img)
	}
	return out
}

// ComputeRepoProfiles is RepoProfiles on tasks and runs in memory, without
// images (the workbench recomputes one repo as its runs finish).
func ComputeRepoProfiles(tasks []*pipeline.Task, runs []*pipeline.Run, profiles map[string]workspace.RepoConfig, repo string) []*RepoProfile {
	f := stats.ComputeFunnel(tasks, runs, repo)
	byRepo := map[string][]*pipeline.Task{}
	for _, t := range tasks {
		if t.Mined() && (repo == "" || t.Repo == repo) {
			byRepo[t.Repo] = append(byRepo[t.Repo], t)
		}
	}
	out := make([]*RepoProfile, 0, len(f.Repos))
	for _, rf := range f.Repos {
		p := &RepoProfile{Repo: rf.Repo, Funnel: rf, Images: []RepoImage{}}
		if rc, ok := profiles[rf.Repo]; ok {
			p.Profile = &rc
		}
		p.describe(byRepo[rf.Repo])
		p.Failures = FailureGroups(byRepo[rf.Repo])
		out = append(out, p)
	}
	return out
}

// describe fills language, toolchain, install steps and test command.
func (p *RepoProfile) describe(tasks []*pipeline.Task) {
	langs, toolchain, install, tests := counter{}, counter{}, counter{}, counter{}
	for _, t := range tasks {
		if t.Language != "" {
			langs.add(t.Language)
		}
		for _, n := range EnvironmentNotes(t) {
			switch {
			case strings.HasPrefix(n, "toolchain:"):
				toolchain.add(strings.TrimSpace(strings.TrimPrefix(n, "toolchain:")))
			case strings.HasPrefix(n, "tests:"):
				tests.add(strings.TrimSpace(strings.TrimPrefix(n, "tests:")))
			case strings.HasPrefix(n, "network at build time:"):
			default:
				install.add(n)
			}
		}
	}
	p.Language = langs.top(1).first()
	p.Toolchain = toolchain.top(3)
	p.Install, p.InstallSource = install.top(6), "detected"
	p.TestCommand, p.TestSource = tests.top(1).first(), "detected"
	if rc := p.Profile; rc != nil {
		if rc.Language != "" {
			p.Language = rc.Language
		}
		if len(rc.Install) > 0 {
			p.Install, p.InstallSource = rc.Install, "curate.toml"
		}
		if rc.TestCommand != "" {
			p.TestCommand, p.TestSource = rc.TestCommand, "curate.toml"
		}
	}
	if p.Toolchain == nil {
		p.Toolchain = []string{}
	}
	if p.Install == nil {
		p.Install = []string{}
	}
}

// counter counts strings and lists the most common first.
type counter map[string]int

func (c counter) add(s string) { c[s]++ }

type strs []string

func (s strs) first() string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

func (c counter) top(n int) strs {
	out := make([]string, 0, len(c))
	for s := range c {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool {
		if c[out[i]] != c[out[j]] {
			return c[out[i]] > c[out[j]]
		}
		return out[i] < out[j]
	})
	if len(out) > n {
		out = out[:n]
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// FailureGroups groups invalid tasks by failure class, in class order
// (pipeline.FailureClasses: what a curator can fix first).
func FailureGroups(tasks []*pipeline.Task) []FailureGroup {
	idx := map[string]int{}
	out := []FailureGroup{}
	for _, t := range tasks {
		if t.Status != pipeline.StatusInvalid {
			continue
		}
		f := t.Failure
		if f == nil {
			f = &pipeline.Failure{Class: pipeline.ClassUnclassified}
		}
		i, ok := idx[f.Class]
		if !ok {
			i = len(out)
			idx[f.Class] = i
			out = append(out, FailureGroup{Class: f.Class, Tasks: []string{}, Evidence: []Evidence{}, Suggestions: []string{}})
		}
		g := &out[i]
		g.Tasks = append(g.Tasks, t.ID)
		if f.Evidence != "" {
			g.Evidence = append(g.Evidence, Evidence{TaskID: t.ID, Line: f.Evidence})
		}
		if f.Suggestion != "" && !slices.Contains(g.Suggestions, f.Suggestion) {
			g.Suggestions = append(g.Suggestions, f.Suggestion)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		return pipeline.ClassRank(out[i].Class) < pipeline.ClassRank(out[j].Class)
	})
	return out
}

// imageStates asks the workspace's first engine which env images exist;
// nil when not asked or no engine answers.
func imageStates(ctx context.Context, ws *workspace.Workspace, ask bool) func(tag string) string {
	if !ask {
		return nil
	}
	octx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	runners, err := OpenRunners(octx, ws, DockerHosts(ws, nil), nil)
	if err != nil {
		return nil
	}
	r := runners[0]
	for _, x := range runners[1:] {
		x.Close()
	}
	seen := map[string]string{}
	return func(tag string) string {
		if s, ok := seen[tag]; ok {
			return s
		}
		ictx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		_, err := r.Client().ImageInspect(ictx, tag)
		s := "present"
		switch {
		case err == nil:
		case cerrdefs.IsNotFound(err):
			s = "missing"
		default:
			s = "unknown"
		}
		seen[tag] = s
		return s
	}
}

// repoImages lists the env images of repo's built tasks.
func repoImages(root string, tasks []*pipeline.Task, repo string, state func(string) string) []RepoImage {
	byDigest := map[string]*RepoImage{}
	var order []string
	for _, t := range tasks {
		if t.Repo != repo || !t.Mined() || t.TaskDir == "" {
			continue
		}
		d, err := EnvDigest(root, t)
		if err != nil {
			continue
		}
		img := byDigest[d]
		if img == nil {
			img = &RepoImage{Tag: validate.ImageTag(root, d), Digest: d, State: "unknown"}
			if state != nil {
				img.State = state(img.Tag)
			}
			byDigest[d] = img
			order = append(order, d)
		}
		img.Tasks++
	}
	out := make([]RepoImage, 0, len(order))
	for _, d := range order {
		out = append(out, *byDigest[d])
	}
	return out
}

// EnvDigest is the digest of a task's environment/ folder: the input of
// its image (validate tags images by it).
func EnvDigest(root string, t *pipeline.Task) (string, error) {
	dir, err := validate.ResolveTaskDir(root, t)
	if err != nil {
		return "", err
	}
	return validate.EnvDigest(dir)
}
