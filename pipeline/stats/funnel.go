package stats

import (
	"sort"
	"strings"

	"curate/pipeline"
)

// Funnel is the yield of task construction per repository: how many mined
// PRs survive each step to a valid task, and why the others stopped.
// `curate funnel` and the methodology report both print it.
type Funnel struct {
	Repos []RepoFunnel `json:"repos"`
	Total RepoFunnel   `json:"total"`
	// Timing is the machine time per phase (funnel --timing; nil without).
	Timing *Timing `json:"timing,omitempty"`
}

// RepoFunnel is one repository's funnel. Each step counts the tasks that
// passed it and every step before it.
type RepoFunnel struct {
	Repo         string `json:"repo"`
	Mined        int    `json:"mined"`
	PassedFilter int    `json:"passed_filter"`
	Built        int    `json:"built"`
	Nop0         int    `json:"nop_0"`        // NOP reward 0 and the suite ran
	Oracle1      int    `json:"oracle_1"`     // and Oracle reward 1
	FailToPass   int    `json:"fail_to_pass"` // and gold found at least one FAIL_TO_PASS test
	Valid        int    `json:"valid"`
	// Unbuilt passed the filter but were never built; NotValidated are
	// built tasks whose runs do not settle them yet.
	Unbuilt      int `json:"unbuilt"`
	NotValidated int `json:"not_validated"`
	// Validating are built tasks not settled yet whose runs are in flight:
	// a batch is on them, so nothing is advised.
	Validating int `json:"validating"`
	// NoFailToPass is the true negatives: the suite ran in both states and
	// none of the PR's tests failed before the fix.
	NoFailToPass ClassRow `json:"no_fail_to_pass"`
	// Failures are the invalid tasks by failure class, worst class first.
	Failures []ClassRow `json:"failures"`
	// NotBuilt are tasks that passed the filter but whose build was
	// refused, by reason (patch_conflict counted as one class).
	NotBuilt []ClassRow `json:"not_built"`
	// Snapshot counts the built tasks mirrored onto the repository's
	// snapshot (the rest were built at their merge commit).
	Snapshot int `json:"built_at_snapshot"`
	// EnvCheck is the repository's environment check at its snapshot
	// ("ok 95/100 (95%)", "failed ...", "not run"); the caller fills it
	// from the repository's state, "" leaves the stage out.
	EnvCheck string `json:"env_check,omitempty"`
}

// ClassRow is a class (or reason), how many tasks have it and a few ids.
type ClassRow struct {
	Class    string   `json:"class"`
	Count    int      `json:"count"`
	Examples []string `json:"examples,omitempty"`
}

// maxExamples is how many task ids a row names.
const maxExamples = 3

// buildReason marks the reasons `curate build` gives when it refuses a
// candidate, apart from the filter's.
const buildReason = "build: "

// ComputeFunnel builds the funnel of the mined tasks, with their runs
// (any order, any task), for one repository or all (repo "").
func ComputeFunnel(tasks []*pipeline.Task, runs []*pipeline.Run, repo string) *Funnel {
	byTask := map[string][]*pipeline.Run{}
	for _, r := range runs {
		byTask[r.TaskID] = append(byTask[r.TaskID], r)
	}
	rows := map[string]*RepoFunnel{}
	total := newRepoFunnel("total")
	for _, t := range tasks {
		if !t.Mined() || (repo != "" && t.Repo != repo) {
			continue
		}
		row := rows[t.Repo]
		if row == nil {
			row = newRepoFunnel(t.Repo)
			rows[t.Repo] = row
		}
		for _, f := range []*RepoFunnel{row, total} {
			f.add(t, byTask[t.ID])
		}
	}
	out := &Funnel{Repos: []RepoFunnel{}, Total: *total}
	for _, r := range rows {
		r.sortRows()
		out.Repos = append(out.Repos, *r)
	}
	out.Total.sortRows()
	sort.Slice(out.Repos, func(i, j int) bool { return out.Repos[i].Repo < out.Repos[j].Repo })
	return out
}

func newRepoFunnel(repo string) *RepoFunnel {
	return &RepoFunnel{Repo: repo, NoFailToPass: ClassRow{Class: pipeline.ClassNoFailToPass},
		Failures: []ClassRow{}, NotBuilt: []ClassRow{}}
}

func (f *RepoFunnel) add(t *pipeline.Task, runs []*pipeline.Run) {
	f.Mined++
	if t.Status == pipeline.StatusRejected && !onlyBuildReasons(t.Reasons) {
		return
	}
	f.PassedFilter++
	if t.TaskDir == "" {
		if t.Status == pipeline.StatusRejected {
			reason := strings.TrimPrefix(t.Reasons[0], buildReason)
			if strings.HasPrefix(reason, pipeline.ClassPatchConflict+":") {
				reason = pipeline.ClassPatchConflict // one row, whatever the files
			}
			f.NotBuilt = addExample(f.NotBuilt, reason, t.ID)
		} else if e, _ := t.Extra[pipeline.ExtraBuildError].(string); e != "" {
			f.NotBuilt = addExample(f.NotBuilt, "build error: "+e, t.ID)
		} else {
			f.Unbuilt++
		}
		return
	}
	f.Built++
	if s, _ := t.Extra[pipeline.ExtraBuildStrategy].(string); s == pipeline.AtSnapshot {
		f.Snapshot++
	}
	latest := pipeline.LatestRuns(runs, t.Digest)
	ok := func(mode string) bool { return pipeline.Passed(latest, mode) }
	switch {
	case !ok(pipeline.ModeNop):
	case !ok(pipeline.ModeOracle):
		f.Nop0++
	case !ok(pipeline.ModeGold):
		f.Nop0++
		f.Oracle1++
	default:
		f.Nop0++
		f.Oracle1++
		f.FailToPass++
	}
	switch {
	case validTask(t, runs):
		f.Valid++
	case t.Status == pipeline.StatusInvalid && t.Failure != nil && t.Failure.Class == pipeline.ClassNoFailToPass:
		f.NoFailToPass.Count++
		if len(f.NoFailToPass.Examples) < maxExamples {
			f.NoFailToPass.Examples = append(f.NoFailToPass.Examples, t.ID)
		}
	case t.Status == pipeline.StatusInvalid:
		class := pipeline.ClassUnclassified
		if t.Failure != nil {
			class = t.Failure.Class
		}
		f.Failures = addExample(f.Failures, class, t.ID)
	case inFlight(runs, t.Digest):
		f.Validating++
	default:
		f.NotValidated++
	}
}

// validTask reports a valid task whose latest runs on its current files
// all passed: the funnel's last step.
func validTask(t *pipeline.Task, runs []*pipeline.Run) bool {
	latest := pipeline.LatestRuns(runs, t.Digest)
	return t.Status == pipeline.StatusValid && pipeline.Passed(latest, pipeline.ModeGold) &&
		pipeline.Passed(latest, pipeline.ModeOracle) && pipeline.Passed(latest, pipeline.ModeNop)
}

// inFlight reports a run pending or running on the task's current files.
func inFlight(runs []*pipeline.Run, digest string) bool {
	for _, r := range runs {
		if !r.Outcome.Finished() && (r.Digest == "" || r.Digest == digest) {
			return true
		}
	}
	return false
}

func onlyBuildReasons(reasons []string) bool {
	for _, r := range reasons {
		if !strings.HasPrefix(r, buildReason) {
			return false
		}
	}
	return len(reasons) > 0
}

func addExample(rows []ClassRow, class, id string) []ClassRow {
	for i := range rows {
		if rows[i].Class == class {
			rows[i].Count++
			if len(rows[i].Examples) < maxExamples {
				rows[i].Examples = append(rows[i].Examples, id)
			}
			return rows
		}
	}
	return append(rows, ClassRow{Class: class, Count: 1, Examples: []string{id}})
}

// sortRows puts failures in class order (pipeline.FailureClasses) and
// build refusals by count.
func (f *RepoFunnel) sortRows() {
	sort.SliceStable(f.Failures, func(i, j int) bool {
		return pipeline.ClassRank(f.Failures[i].Class) < pipeline.ClassRank(f.Failures[j].Class)
	})
	sort.SliceStable(f.NotBuilt, func(i, j int) bool {
		if f.NotBuilt[i].Count != f.NotBuilt[j].Count {
			return f.NotBuilt[i].Count > f.NotBuilt[j].Count
		}
		return f.NotBuilt[i].Class < f.NotBuilt[j].Class
	})
}

// Steps lists a funnel's steps with their counts, in order, for printing.
func (f *RepoFunnel) Steps() []Step {
	return []Step{
		{"mined", f.Mined}, {"passed the filter", f.PassedFilter}, {"built", f.Built},
		{"NOP 0", f.Nop0}, {"Oracle 1", f.Oracle1}, {">=1 FAIL_TO_PASS", f.FailToPass}, {"valid", f.Valid},
	}
}

// Step is one funnel step.
type Step struct {
	Name  string
	Count int
}

// EnvironmentFailures counts the invalid tasks whose class is about the
// environment (dependencies, registries, toolchains), not the task.
func (f *RepoFunnel) EnvironmentFailures() int {
	n := 0
	for _, r := range f.Failures {
		switch r.Class {
		case pipeline.ClassDepsMissing, pipeline.ClassDepsUnreachable, pipeline.ClassToolchainMismatch, pipeline.ClassOOM, pipeline.ClassDiskLimit:
			n += r.Count
		}
	}
	return n
}
