package validate

import (
	"bufio"
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"sync"

	"github.com/pelletier/go-toml/v2"

	"curate/pipeline"
	"curate/pipeline/validate/parse"
)

// The rules that read failure classes out of run logs are data, so a
// curator (or the next language) adds a pattern without touching code.
//
//go:embed classes.toml
var classesTOML []byte

// Rule is one [[rule]] of classes.toml.
type Rule struct {
	Class     string   `toml:"class"`
	Languages []string `toml:"languages"`
	Match     string   `toml:"match"`
	What      string   `toml:"what"`
	Suggest   string   `toml:"suggest"`
	Host      int      `toml:"host"`
	// Evidence "step" makes the evidence the tool's first error line in
	// the step's output rather than the matched line (cargo names the
	// package that needs a newer rustc on the line after its error:).
	Evidence string `toml:"evidence"`
	// OwnModule limits the rule to lines whose first group names the
	// project's own package (its repository name): not a dependency.
	OwnModule bool `toml:"own_module"`
	// Unless is a second expression: a line it matches is not this
	// rule's (cargo's "error: test failed, ..." is not a compile error).
	Unless string `toml:"unless"`

	re     *regexp.Regexp
	unless *regexp.Regexp
	own    bool // matches curate's own evidence lines: build output only (Match)
}

// Classifier reads failure classes out of logs with a list of rules.
type Classifier struct{ rules []Rule }

// logClasses are the classes a rule may name; the rest come from outcomes.
var logClasses = map[string]bool{
	pipeline.ClassDepsMissing: true, pipeline.ClassDepsUnreachable: true, pipeline.ClassToolchainMismatch: true,
	pipeline.ClassCompileError: true, pipeline.ClassNoTestsCollected: true, pipeline.ClassOOM: true,
}

// ParseRules reads a classes.toml; name is used in messages.
func ParseRules(name string, data []byte) (*Classifier, error) {
	var doc struct {
		Rule []Rule `toml:"rule"`
	}
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		var strict *toml.StrictMissingError
		if errors.As(err, &strict) && len(strict.Errors) > 0 {
			e := strict.Errors[0]
			row, col := e.Position()
			return nil, fmt.Errorf("%s:%d:%d: unknown key %q", name, row, col, strings.Join(e.Key(), "."))
		}
		var de *toml.DecodeError
		if asDecodeError(err, &de) {
			row, col := de.Position()
			return nil, fmt.Errorf("%s:%d:%d: %s", name, row, col, de.Error())
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	c := &Classifier{}
	for i, r := range doc.Rule {
		if !logClasses[r.Class] {
			return nil, fmt.Errorf("%s: rule %d: class %q is not one a log can show", name, i+1, r.Class)
		}
		re, err := regexp.Compile(r.Match)
		if err != nil {
			return nil, fmt.Errorf("%s: rule %d (%s): match: %w", name, i+1, r.Class, err)
		}
		if r.Unless != "" {
			if r.unless, err = regexp.Compile(r.Unless); err != nil {
				return nil, fmt.Errorf("%s: rule %d (%s): unless: %w", name, i+1, r.Class, err)
			}
		}
		if r.Evidence != "" && r.Evidence != "step" {
			return nil, fmt.Errorf("%s: rule %d (%s): evidence %q: the only value is \"step\"", name, i+1, r.Class, r.Evidence)
		}
		if r.Host > re.NumSubexp() || (r.OwnModule && re.NumSubexp() < 1) {
			return nil, fmt.Errorf("%s: rule %d (%s): refers to a group the expression lacks", name, i+1, r.Class)
		}
		r.re, r.own = re, strings.HasPrefix(r.Match, "^curate: ")
		c.rules = append(c.rules, r)
	}
	return c, nil
}

var defaultClassifier = sync.OnceValues(func() (*Classifier, error) {
	return ParseRules("pipeline/validate/classes.toml", classesTOML)
})

// DefaultClassifier is the embedded classes.toml.
func DefaultClassifier() *Classifier {
	c, err := defaultClassifier()
	if err != nil {
		panic(err) // the embedded file is checked by its tests
	}
	return c
}

// registries names where each language's packages come from, for
// messages when a log line names no host.
var registries = map[string]string{
	"python": "PyPI (pypi.org)", "go": "the Go module proxy (proxy.golang.org)",
	"javascript": "the npm registry (registry.npmjs.org)", "typescript": "the npm registry (registry.npmjs.org)",
	"rust": "crates.io (index.crates.io)", "java": "Maven Central (repo.maven.apache.org)",
}

// Registry names the package registry of a language.
func Registry(lang string) string {
	if r, ok := registries[lang]; ok {
		return r
	}
	return "the package registry"
}

var urlHost = regexp.MustCompile(`https?://([A-Za-z0-9.-]+)`)

// outcomeOOM is the outcome of a container stopped by its memory limit
// (contained validation).
const outcomeOOM = pipeline.Outcome("oom")

// maxEvidence bounds the evidence line kept on a run.
const maxEvidence = 300

// quotedRunRe finds a RUN step quoted inside a line (a failed build's
// detail: "build environment image: Step 24/32 : RUN curate-step ...
// 's/.*Could not find artifact ...' ... returned a non-zero code: 1"):
// the command's own patterns must not pass for its output. A quoted FROM
// stays (its pull error follows it on the line).
var quotedRunRe = regexp.MustCompile(`\bStep \d+/\d+ : RUN .*`)

// Match finds the log line that best explains a failure: the matching
// rule whose class ranks first, then the rule listed first in the file,
// then its earliest line. repo ("owner/name") fills suggestions.
func (c *Classifier) Match(lang, repo string, log []byte) (*pipeline.Failure, bool) {
	return c.match(lang, repo, log, false)
}

// match is Match; inRun says the log starts inside the run's containers'
// output (its head, with the build, was cut off).
func (c *Classifier) match(lang, repo string, log []byte, inRun bool) (*pipeline.Failure, bool) {
	var best *pipeline.Failure
	bestRank, bestLine, bestRule := 0, 0, 0
	sc := bufio.NewScanner(bytes.NewReader(log))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	n := 0
	var lines []string
	for sc.Scan() {
		n++
		line := strings.TrimRight(sc.Text(), "\r")
		lines = append(lines, line)
		if !inRun && isRunStart(line) {
			inRun = true
		}
		if strings.HasPrefix(line, "Step ") || strings.HasPrefix(line, "The command '") {
			// A Dockerfile step, and the classic builder's "The command
			// '/bin/sh -c ...' returned a non-zero code", quote the
			// command, not its output.
			continue
		}
		text := quotedRunRe.ReplaceAllString(line, "")
		for i := range c.rules {
			r := &c.rules[i]
			if !r.applies(lang) || (r.own && inRun) {
				continue
			}
			rank := pipeline.ClassRank(r.Class)
			if best != nil && (rank > bestRank || (rank == bestRank && (i > bestRule || (i == bestRule && n > bestLine)))) {
				continue
			}
			m := r.re.FindStringSubmatch(text)
			if m == nil || (r.OwnModule && !ownModule(m[1], repo)) || (r.unless != nil && r.unless.MatchString(text)) {
				continue
			}
			best, bestRank, bestLine, bestRule = r.failure(lang, repo, line, m), rank, n, i
			if r.own || r.Evidence == "step" {
				// curate's line says what; the evidence is the tool's own
				// first error line in that step's output, when it has one.
				if tool := stepErrorLine(lines, n-1); tool != "" {
					best.Evidence = tool
				}
			}
		}
	}
	return best, best != nil
}

// classMatch is Match on a run's log: a log cut at its head counts as the
// containers' output when the run got past its build and the cut took the
// line that says where that starts.
func (c *Classifier) classMatch(in ClassifyInput) (*pipeline.Failure, bool) {
	inRun := in.Cut && in.Run.Outcome != pipeline.OutcomeBuildFailed
	if inRun {
		for _, l := range bytes.Split(in.Log, []byte("\n")) {
			if isRunStart(string(l)) {
				inRun = false // match finds it again and switches there
				break
			}
		}
	}
	return c.match(in.Language, in.Repo, in.Log, inRun)
}

// isRunStart reports the line curate writes between a run's image build
// and its containers. From there on the log is what the task printed, and
// a task can print anything: curate's own evidence lines ("curate:
// deps_missing: ...") are believed only above it, where curate's build
// steps wrote them.
func isRunStart(line string) bool {
	return strings.HasPrefix(line, "curate: built image ") ||
		(strings.HasPrefix(line, "curate: image ") && strings.HasSuffix(line, " is up to date, no build"))
}

func (r *Rule) applies(lang string) bool {
	if len(r.Languages) == 0 {
		return true
	}
	for _, l := range strings.Split(lang, ",") {
		for _, want := range r.Languages {
			if strings.TrimSpace(l) == want {
				return true
			}
		}
	}
	return false
}

// ownModule reports whether a module name is the repository's own package
// (widgets in acme/widgets, more_widgets in acme/more-widgets).
func ownModule(module, repo string) bool {
	_, name, _ := strings.Cut(repo, "/")
	norm := func(s string) string { return strings.ToLower(strings.ReplaceAll(s, "-", "_")) }
	return name != "" && norm(module) == norm(name)
}

func (r *Rule) failure(lang, repo, line string, m []string) *pipeline.Failure {
	registry := Registry(lang)
	if r.Host > 0 && m[r.Host] != "" {
		registry = m[r.Host]
	} else if u := urlHost.FindStringSubmatch(line); u != nil && r.Class == pipeline.ClassDepsUnreachable {
		registry = u[1] // the host the failing request went to
	}
	expand := func(tmpl string) string {
		out := tmpl
		for i := len(m) - 1; i >= 1; i-- { // $10 before $1
			out = strings.ReplaceAll(out, fmt.Sprintf("$%d", i), m[i])
		}
		out = strings.ReplaceAll(out, "{registry}", registry)
		return strings.ReplaceAll(out, "{repo}", repoHeader(repo))
	}
	ev := strings.TrimSpace(line)
	if len(ev) > maxEvidence {
		ev = ev[:maxEvidence] + "…"
	}
	f := &pipeline.Failure{Class: r.Class, Evidence: ev}
	what := expand(r.What)
	f.Suggestion = expand(r.Suggest)
	if what != "" {
		if f.Suggestion != "" {
			f.Suggestion += "  # " + what
		} else {
			f.Suggestion = "# " + what
		}
	}
	return f
}

func repoHeader(repo string) string {
	if repo == "" {
		repo = "owner/name"
	}
	return fmt.Sprintf("[repos.%q]", repo)
}

// ClassifyInput is what Classify reads of one finished run.
type ClassifyInput struct {
	Run      *pipeline.Run
	Language string
	Repo     string
	Log      []byte // the run's log: image build output, then the containers'
	// Cut says Log is the end of a longer log; unless it shows where the
	// containers' output starts, none of it counts as curate's own.
	Cut bool
}

// Classify gives a finished run that is not ok its failure class. Rules on
// the log decide environment classes; otherwise the outcome does.
func (c *Classifier) Classify(in ClassifyInput) *pipeline.Failure {
	r := in.Run
	switch r.Outcome {
	case pipeline.OutcomeOK, pipeline.OutcomePending, pipeline.OutcomeRunning,
		pipeline.OutcomeCancelled, pipeline.OutcomeInterrupted:
		return nil
	case pipeline.OutcomeNopPassed:
		ev := r.Detail
		if r.Mode == ModeNop {
			ev = "NOP reward 1: the PR's tests pass on the buggy state"
			if rep := parse.Auto(in.Log); len(rep.Tests) > 0 {
				var parts []string
				for _, n := range rep.Names() {
					parts = append(parts, n+" "+string(rep.Tests[n]))
				}
				ev += fmt.Sprintf(" (%d tests: %s)", len(parts), strings.Join(firstN(parts, 8), "; "))
			}
		}
		return &pipeline.Failure{Class: pipeline.ClassNoFailToPass, Evidence: ev}
	case pipeline.OutcomeTimeout:
		if f, ok := c.classMatch(in); ok && f.Class == pipeline.ClassOOM {
			return f
		}
		return &pipeline.Failure{Class: pipeline.ClassTimeout, Evidence: r.Detail,
			Suggestion: "# raise [verifier] timeout_sec in task.toml, or `curate validate --timeout 1h ID`"}
	case pipeline.OutcomeDiskLimit:
		return &pipeline.Failure{Class: pipeline.ClassDiskLimit, Evidence: r.Detail,
			Suggestion: "# the tests wrote more than the disk cap: raise [docker] max_disk in curate.toml if they really need it"}
	case outcomeOOM:
		return &pipeline.Failure{Class: pipeline.ClassOOM, Evidence: r.Detail,
			Suggestion: "# raise the memory limit: [docker] memory in curate.toml, or memory_mb in task.toml"}
	case pipeline.OutcomeFlaky:
		return &pipeline.Failure{Class: pipeline.ClassFlaky, Evidence: r.Detail,
			Suggestion: "# the tests differ across reruns: exclude the task or pin the flaky tests"}
	}
	if f, ok := c.classMatch(in); ok {
		return f
	}
	switch {
	case r.Outcome == pipeline.OutcomeNopNotRun:
		return &pipeline.Failure{Class: pipeline.ClassNopNotRun, Evidence: firstErrorLine(in.Log, lastStepErrorLine(in.Log, r.Detail))}
	case r.Outcome == pipeline.OutcomeOracleFailed:
		rep := parse.Auto(in.Log)
		if rep.Failing() > 0 {
			return &pipeline.Failure{Class: pipeline.ClassFixFailsTests,
				Evidence: "failing after the fix: " + strings.Join(firstN(failing(rep), 5), ", ")}
		}
		if !rep.Ran && len(rep.Tests) == 0 {
			return &pipeline.Failure{Class: pipeline.ClassNopNotRun, Evidence: lastStepErrorLine(in.Log, "the log shows no sign the test suite ran")}
		}
	case r.Outcome == pipeline.OutcomeInfraError && strings.HasPrefix(r.Detail, "buggy state: the log shows no sign"):
		return &pipeline.Failure{Class: pipeline.ClassNopNotRun, Evidence: lastStepErrorLine(in.Log, r.Detail)}
	case r.Outcome == pipeline.OutcomeInfraError && !strings.Contains(r.Detail, " state: "):
		return &pipeline.Failure{Class: pipeline.ClassInfraError, Evidence: r.Detail}
	}
	return &pipeline.Failure{Class: pipeline.ClassUnclassified, Evidence: lastStepErrorLine(in.Log, r.Detail)}
}

func failing(rep *parse.Report) []string {
	var out []string
	for _, n := range rep.Names() {
		if rep.Tests[n].Fail() {
			out = append(out, n)
		}
	}
	return out
}

var errorLineRe = regexp.MustCompile(`^\s*(?:[\w.$]*(?:Error|Exception)\b:? |error(?:\[\w+\])?: |ERROR[: ]|FAIL(?:ED)?[: ])`)

// firstErrorLine is the first error line the tests printed (after
// curate's "verifier:" line, so the image build's output is skipped),
// the likeliest reason a suite never ran: a test file that throws while
// it loads ("TypeError: x is not iterable"); fallback when none.
func firstErrorLine(log []byte, fallback string) string {
	text := string(log)
	if i := strings.LastIndex(text, "curate: verifier:"); i >= 0 {
		text = text[i:]
	}
	for _, l := range strings.Split(text, "\n") {
		if errorLineRe.MatchString(l) {
			l = strings.TrimSpace(l)
			if len(l) > maxEvidence {
				l = l[:maxEvidence] + "…"
			}
			return l
		}
	}
	return fallback
}

// maxClassifyLog is how much of a run log's end the classifier reads: the
// cause of a failure is near the end, and logs of big builds are long.
const maxClassifyLog = 8 << 20

// readTail reads up to max bytes from the end of a file.
func readTail(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if off := fi.Size() - max; off > 0 {
		if _, err := f.Seek(off, io.SeekStart); err != nil {
			return nil, err
		}
	}
	return io.ReadAll(io.LimitReader(f, max))
}

// stateEvidence lists the PR's tests with their status on the buggy and
// the fixed state ("test_x PASSED→PASSED"), the evidence that a task is a
// true negative.
func stateEvidence(a attempt) string {
	if a.fixed == nil {
		return ""
	}
	names := a.fixed.Names()
	var parts []string
	for _, n := range names {
		before := "MISSING"
		if a.buggy != nil {
			if s, ok := a.buggy.Tests[n]; ok {
				before = string(s)
			}
		}
		parts = append(parts, fmt.Sprintf("%s %s→%s", n, before, a.fixed.Tests[n]))
	}
	return fmt.Sprintf("%d tests, buggy→fixed: %s", len(names), strings.Join(firstN(parts, 8), "; "))
}
