package ciconfig

import (
	"regexp"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// setupActions map an action (owner/name, before @) to the tool it sets
// up and the input that names the version.
var setupActions = map[string][2]string{
	"actions/setup-java":                       {Java, "java-version"},
	"actions/setup-node":                       {Node, "node-version"},
	"actions/setup-python":                     {Python, "python-version"},
	"actions/setup-go":                         {Go, "go-version"},
	"actions-rs/toolchain":                     {Rust, "toolchain"},
	"actions-rust-lang/setup-rust-toolchain":   {Rust, "toolchain"},
	"dtolnay/rust-toolchain":                   {Rust, "toolchain"},
	"pnpm/action-setup":                        {"pnpm", "version"},
	"gradle/actions/setup-gradle":              {"gradle", "gradle-version"},
	"stCarolas/setup-maven":                    {"maven", "maven-version"},
	"astral-sh/setup-uv":                       {Python, "python-version"},
	"ruby/setup-ruby":                          {"ruby", "ruby-version"},
	"actions-ecosystem/action-setup-toolchain": {Rust, "toolchain"},
}

// job is a scored GitHub Actions job.
type job struct {
	name  string
	score int
	cfg   fileConfig
}

// readWorkflow reads one workflow file: each job that runs on Linux is
// read at its chosen matrix entry; the job with a test command and setup
// steps wins, and tools it does not set up come from the next jobs.
func readWorkflow(file, content string) fileConfig {
	var doc map[string]any
	if err := yaml.Unmarshal([]byte(content), &doc); err != nil {
		return fileConfig{}
	}
	jobs, _ := doc["jobs"].(map[string]any)
	var read []job
	for _, name := range jobOrder(content, jobs) {
		j, ok := jobs[name].(map[string]any)
		if !ok {
			continue
		}
		var matrix any
		if st, ok := j["strategy"].(map[string]any); ok {
			matrix = st["matrix"]
		}
		combos := expand(matrix)
		var linux []combo
		for _, c := range combos {
			if onLinux(j["runs-on"], c) {
				linux = append(linux, c)
			}
		}
		if len(linux) == 0 {
			continue
		}
		c := choose(linux)
		r := readJob(file+" job "+name, j, c)
		score := nameScore(name, text(j["name"]))
		if len(r.tests) > 0 {
			score += 2
		}
		if len(r.versions) > 0 {
			score += 2
		}
		read = append(read, job{name: name, score: score, cfg: r})
	}
	sort.SliceStable(read, func(a, b int) bool { return read[a].score > read[b].score })
	out := fileConfig{versions: map[string]Setting{}}
	for i, j := range read {
		for tool, s := range j.cfg.versions {
			if _, ok := out.versions[tool]; !ok {
				out.versions[tool] = s
			}
		}
		if i == 0 {
			out.packages, out.services, out.tests = j.cfg.packages, j.cfg.services, j.cfg.tests
		}
		if len(out.defines) == 0 {
			out.defines = j.cfg.defines // the chosen job's, else the next that configures with cmake
		}
		if len(out.targets) == 0 {
			out.targets = j.cfg.targets
		}
	}
	return out
}

// onLinux reports whether runs-on (a label, a list of labels, or a
// matrix expression) names a Linux runner for entry c; an expression
// nobody can read here counts as Linux (most runners are).
func onLinux(runsOn any, c combo) bool {
	var labels []string
	switch v := runsOn.(type) {
	case string:
		labels = []string{v}
	case []any:
		for _, x := range v {
			labels = append(labels, text(x))
		}
	case map[string]any:
		labels = []string{text(v["labels"]), text(v["group"])}
	default:
		return true
	}
	for _, l := range labels {
		s := strings.ToLower(substitute(l, c))
		if strings.Contains(s, "windows") || strings.Contains(s, "macos") || strings.Contains(s, "mac-") {
			return false
		}
	}
	return true
}

// readJob reads a job's steps and services at matrix entry c.
func readJob(where string, j map[string]any, c combo) fileConfig {
	out := fileConfig{versions: map[string]Setting{}}
	if svc, ok := j["services"].(map[string]any); ok {
		for _, name := range sortedKeys(svc) {
			image := name
			switch s := svc[name].(type) {
			case map[string]any:
				if im := substitute(text(s["image"]), c); im != "" {
					image = im
				}
			case string:
				image = substitute(s, c)
			}
			out.services = append(out.services, Setting{Value: image, Source: where + " services." + name})
		}
	}
	if cont, ok := j["container"].(map[string]any); ok {
		readImage(&out, substitute(text(cont["image"]), c), where+" container")
	} else if s, ok := j["container"].(string); ok {
		readImage(&out, substitute(s, c), where+" container")
	}
	steps, _ := j["steps"].([]any)
	for _, st := range steps {
		s, ok := st.(map[string]any)
		if !ok {
			continue
		}
		if uses := text(s["uses"]); uses != "" {
			readUses(&out, where, uses, s, c)
		}
		if run := text(s["run"]); run != "" {
			n := len(out.tests)
			readShell(&out, where+" run", substitute(run, c))
			if n == len(out.tests) && testStepNameRe.MatchString(text(s["name"])) {
				// A step named for its tests runs them ("Run tests": make coverage).
				out.tests = append(out.tests, Setting{Value: strings.TrimSpace(substitute(run, c)), Source: where + " run"})
			}
		}
	}
	return out
}

// readUses reads a setup action's version input (or, for
// dtolnay/rust-toolchain, the ref: @1.70, @stable).
func readUses(out *fileConfig, where, uses string, step map[string]any, c combo) {
	action, ref, _ := strings.Cut(uses, "@")
	action = strings.TrimSuffix(action, "/")
	spec, ok := setupActions[action]
	if !ok {
		return
	}
	tool, input := spec[0], spec[1]
	with, _ := step["with"].(map[string]any)
	v := strings.TrimSpace(substitute(text(with[input]), c))
	if v == "" && tool == Rust && action == "dtolnay/rust-toolchain" && ref != "master" && !isHash(ref) {
		v = ref
	}
	if v == "" {
		if f := text(with[input+"-file"]); f != "" {
			v = "file:" + f // the language reads the file it names
		}
	}
	if i := strings.IndexAny(v, "\n"); i >= 0 {
		v = strings.TrimSpace(v[:i]) // a list of versions: the first
	}
	if v == "" {
		return
	}
	name := action[strings.LastIndex(action, "/")+1:]
	if _, seen := out.versions[tool]; !seen {
		out.versions[tool] = Setting{Value: v, Source: where + " " + name}
	}
}

func isHash(ref string) bool {
	if len(ref) < 7 {
		return false
	}
	for _, r := range ref {
		if !strings.ContainsRune("0123456789abcdef", r) {
			return false
		}
	}
	return true
}

var (
	testStepRe     = regexp.MustCompile(`(?i)\btests?\b`)
	testStepNameRe = regexp.MustCompile(`(?i)^\s*(run\s+)?(the\s+)?(unit\s+|integration\s+)?tests?\b`)
	offNameRe      = regexp.MustCompile(`(?i)lint|doc|format|style|release|publish|deploy|bench|fuzz|codeql|coverage|package|cross|nightly|msrv|miri|sanitiz|audit|typing|mypy|pre-commit`)
)

// nameScore prefers the job named for tests over lint, docs, release and
// other jobs that set a toolchain up for something else.
// The off-topic words are read in the job's key only: "Tests & Mypy"
// names a test job that also type-checks.
func nameScore(key, name string) int {
	score := 0
	if testStepRe.MatchString(key + " " + name) {
		score++
	}
	if offNameRe.MatchString(key) {
		score -= 3
	}
	return score
}

// jobOrder lists the jobs as the file does (ties in score go to the job
// written first), or sorted when the order cannot be read.
func jobOrder(content string, jobs map[string]any) []string {
	var root yaml.Node
	if err := yaml.Unmarshal([]byte(content), &root); err != nil || len(root.Content) == 0 {
		return sortedKeys(jobs)
	}
	top := root.Content[0]
	for i := 0; i+1 < len(top.Content); i += 2 {
		if top.Content[i].Value != "jobs" || top.Content[i+1].Kind != yaml.MappingNode {
			continue
		}
		var out []string
		m := top.Content[i+1]
		for k := 0; k+1 < len(m.Content); k += 2 {
			if _, ok := jobs[m.Content[k].Value]; ok {
				out = append(out, m.Content[k].Value)
			}
		}
		if len(out) == len(jobs) {
			return out
		}
	}
	return sortedKeys(jobs)
}
