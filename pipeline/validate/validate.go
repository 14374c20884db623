package validate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"curate/pipeline"
	"curate/pipeline/validate/logstream"
	"curate/pipeline/validate/parse"
)

// Modes in the order they run.
const (
	ModeNop    = pipeline.ModeNop
	ModeOracle = pipeline.ModeOracle
	ModeGold   = pipeline.ModeGold
)

// ParseModes reads "nop,oracle,gold".
func ParseModes(s string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, m := range strings.Split(s, ",") {
		m = strings.TrimSpace(m)
		switch m {
		case ModeNop, ModeOracle, ModeGold:
			if !seen[m] {
				out = append(out, m)
				seen[m] = true
			}
		case "":
		default:
			return nil, fmt.Errorf("mode %q: want nop, oracle or gold", m)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("no mode given: want nop, oracle or gold")
	}
	return out, nil
}

// Job is one task to validate in one mode.
type Job struct {
	TaskID  string
	TaskDir string // absolute
	Digest  string // task digest at the start
	Mode    string
	// Language and Repo ("owner/name") let the classifier pick its rules
	// and write suggestions for a failed run.
	Language string
	Repo     string
	// LeftOut are the tests a gold run leaves out of both lists
	// (pipeline.MeasuredKnownFailures).
	LeftOut []string
	// StopWhenNopPasses: a mined task, decided by a NOP that passes
	// (early.go).
	StopWhenNopPasses bool
	// ShareStates: the batch runs the task's NOP, Oracle and gold; gold
	// reads the first two's executions (early.go).
	ShareStates bool
}

// ErrCancelRequested is the cause when `curate runs cancel` asked to stop.
var ErrCancelRequested = errors.New("cancel requested")

// Validator runs jobs from one queue over every runner (see queue.go).
type Validator struct {
	Runners     []Runner
	Concurrency int           // containers at once on each runner; 0: each runner's Capacity (Sized), else 1
	Runs        int           // repeats per mode (at least 1)
	Timeout     time.Duration // per container, wins over task.toml (--timeout)
	// DefaultTimeout applies when neither Timeout nor task.toml's
	// verifier.timeout_sec is set ([docker] timeout; else 600 s).
	DefaultTimeout time.Duration
	LogDir         string // run logs go to LogDir/<id>.log
	PID            int    // recorded on runs, to detect crashes

	// NewID names a run; it is called from several workers at once and
	// must never repeat (a repeated id is refused a log file).
	NewID func() string
	// Save stores a run; called when it starts and when it ends.
	Save func(ctx context.Context, r *pipeline.Run) error
	// OnStart lets callers subscribe to a run's live log.
	OnStart func(r *pipeline.Run, log *logstream.Broadcaster)
	// OnDone reports a finished run.
	OnDone func(r *pipeline.Run)
	// OnWait reports a run waiting for its engine's capacity (why; ""
	// when it stops waiting): not a failure, the run goes on.
	OnWait func(runID, why string)
	// OnEngineDown reports, once per engine, that it stopped answering
	// (it gets no more runs; its runs in flight are retried elsewhere).
	OnEngineDown func(host string, err error)
	// CancelRequested is polled while a run is in flight.
	CancelRequested func(runID string) bool
	// Classifier names the failure class of runs that are not ok
	// (DefaultClassifier when nil).
	Classifier *Classifier
	// Measured receives the machine time of each run once it ran, per
	// phase (image builds, executions), with the run's ids.
	Measured func(ctx context.Context, times []pipeline.PhaseTime)
}

// attempt is one repeat's result.
type attempt struct {
	outcome pipeline.Outcome
	reward  *float64
	detail  string
	buggy   *parse.Report // gold only
	fixed   *parse.Report
	// again is the fixed state run a second time (gold with one attempt),
	// so ids that change between runs are seen.
	again *parse.Report
}

// classify gives a finished run that is not ok its failure class, read
// from its log file.
func (v *Validator) classify(job Job, run *pipeline.Run) {
	if run.Outcome == pipeline.OutcomeOK || run.Failure != nil {
		return
	}
	c := v.Classifier
	if c == nil {
		c = DefaultClassifier()
	}
	var log []byte
	cut := false
	if run.LogPath != "" {
		log, _ = readTail(run.LogPath, maxClassifyLog)
		if fi, err := os.Stat(run.LogPath); err == nil && fi.Size() > int64(len(log)) {
			cut = true
		}
	}
	run.Failure = c.Classify(ClassifyInput{Run: run, Language: job.Language, Repo: job.Repo, Log: log, Cut: cut})
}

func (v *Validator) pollCancel(ctx context.Context, cancel context.CancelCauseFunc, id string) {
	t := time.NewTicker(300 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if v.CancelRequested(id) {
				cancel(ErrCancelRequested)
				return
			}
		}
	}
}

func (v *Validator) save(ctx context.Context, r *pipeline.Run) {
	if v.Save != nil {
		if err := v.Save(ctx, r); err != nil && r.Detail == "" {
			r.Detail = "could not save run: " + err.Error()
		}
	}
}

// execute fills run's outcome, reward, detail and gold lists.
func (v *Validator) execute(ctx context.Context, runner Runner, job Job, run *pipeline.Run, log *logstream.Broadcaster, states *stateStash) {
	fail := func(o pipeline.Outcome, msg string) {
		run.Outcome, run.Detail = o, msg
		log.Line("curate: " + string(o) + ": " + msg)
	}
	cfg, err := ReadTaskConfig(job.TaskDir)
	var unsupported *UnsupportedError
	if errors.As(err, &unsupported) {
		fail(pipeline.OutcomeUnsupported, err.Error())
		return
	}
	if err != nil {
		fail(pipeline.OutcomeBuildFailed, err.Error())
		return
	}
	if job.Mode != ModeNop && cfg.AgentNetworkMode != cfg.NetworkMode && cfg.Verifier == nil {
		log.Line(fmt.Sprintf("curate: note: agent phase network %s, verifier phase %s; one container runs both, so it gets %s",
			cfg.AgentNetworkMode, cfg.NetworkMode, map[bool]string{true: "public", false: "no-network"}[cfg.AgentNetworkMode == "public" || cfg.NetworkMode == "public"]))
	}
	log.Line(fmt.Sprintf("curate: %s %s on %s", job.Mode, job.TaskID, runner.Host()))
	if c, ok := runner.(interface{ CapNotes(*TaskConfig) []string }); ok {
		for _, n := range c.CapNotes(cfg) {
			log.Line(n)
		}
	}
	bw := log.Writer()
	buildCtx, cancelBuild := context.WithTimeout(ctx, cfg.BuildTimeout)
	image, built, err := runner.Image(buildCtx, job.TaskDir, bw)
	cancelBuild()
	bw.Flush()
	if err != nil {
		o, msg := classifyErr(ctx, err)
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
			o, msg = pipeline.OutcomeTimeout, fmt.Sprintf("image build exceeded %s", cfg.BuildTimeout)
		}
		if o == pipeline.OutcomeInfraError && isBuildErr(err) {
			o = pipeline.OutcomeBuildFailed
		}
		fail(o, msg)
		return
	}
	if built {
		log.Line("curate: built image " + image)
	} else {
		log.Line("curate: image " + image + " is up to date, no build")
	}

	runs := max(v.Runs, 1)
	var attempts []attempt
	for i := 1; i <= runs; i++ {
		run.Attempt = i
		if runs > 1 {
			log.Line(fmt.Sprintf("curate: attempt %d/%d", i, runs))
		}
		if runs > 1 {
			states = nil // repeats: each state runs as often as asked
		}
		a := v.attempt(ctx, runner, job, run.ID, cfg, image, log, states)
		attempts = append(attempts, a)
		if a.outcome == pipeline.OutcomeCancelled || a.outcome == pipeline.OutcomeInfraError {
			break
		}
	}
	summarize(job.Mode, attempts, run, prTestFileOf(job, log))
	if job.Mode == ModeGold {
		leaveOutKnown(run, job.LeftOut)
	}
	log.Line(fmt.Sprintf("curate: outcome %s%s", run.Outcome, detailSuffix(run.Detail)))
}

func detailSuffix(d string) string {
	if d == "" {
		return ""
	}
	return ": " + d
}

func isBuildErr(err error) bool {
	var be *BuildError
	return errors.As(err, &be)
}

// classifyErr maps a runner error to an outcome.
func classifyErr(ctx context.Context, err error) (pipeline.Outcome, string) {
	var be *BuildError
	switch {
	case errors.As(err, &be):
		return pipeline.OutcomeBuildFailed, be.Error()
	case ctx.Err() != nil && errors.Is(context.Cause(ctx), ErrCancelRequested):
		return pipeline.OutcomeCancelled, "cancelled on request (`curate runs cancel` or the workbench)"
	case ctx.Err() != nil:
		return pipeline.OutcomeCancelled, "cancelled: " + context.Cause(ctx).Error()
	case errors.Is(err, context.DeadlineExceeded):
		return pipeline.OutcomeTimeout, "timed out"
	default:
		return pipeline.OutcomeInfraError, err.Error()
	}
}

func (v *Validator) timeout(cfg *TaskConfig) time.Duration {
	switch {
	case v.Timeout > 0:
		return v.Timeout
	case cfg.VerifierTimeout > 0:
		return cfg.VerifierTimeout
	case v.DefaultTimeout > 0:
		return v.DefaultTimeout
	}
	return defaultTimeout
}

// exec runs one container with its own timeout.
func (v *Validator) exec(ctx context.Context, runner Runner, spec ExecSpec, log *logstream.Broadcaster) (*ExecResult, pipeline.Outcome, string) {
	limit := v.timeout(spec.Config)
	ectx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	stdout, stderr := log.Writer(), log.Writer()
	waiting := func(why string) {
		if v.OnWait != nil {
			v.OnWait(spec.Labels[LabelRun], why)
		}
	}
	start := time.Now()
	res, err := runner.Exec(ectx, spec, Output{Stdout: stdout, Stderr: stderr, Waiting: waiting})
	if res != nil {
		RecordTime(ctx, pipeline.TimeRuns, time.Since(start), res.CPU, res.CPUMeasured)
	} else {
		RecordTime(ctx, pipeline.TimeRuns, time.Since(start), 0, false)
	}
	stdout.Flush()
	stderr.Flush()
	if err == nil && res != nil && res.ExitCode == exitHealthcheck && spec.Config != nil && spec.Config.Healthcheck != nil {
		hc := spec.Config.Healthcheck
		return res, pipeline.OutcomeBuildFailed, fmt.Sprintf("environment healthcheck %q did not pass in %d tries", hc.Command, hc.Retries)
	}
	if err != nil {
		if ctx.Err() == nil && ectx.Err() != nil {
			return res, pipeline.OutcomeTimeout, fmt.Sprintf("container ran longer than %s and was stopped", limit)
		}
		o, msg := classifyErr(ctx, err)
		return res, o, msg
	}
	if res != nil && res.DiskLimitMB > 0 {
		return res, pipeline.OutcomeDiskLimit, fmt.Sprintf("stopped for writing %d MB into its container, over the disk cap of %d MB ([docker] max_disk in curate.toml)", res.DiskUsedMB, res.DiskLimitMB)
	}
	if res != nil && res.OOMKilledMB > 0 && !oomIsTheBug(spec, res, log) {
		return res, pipeline.OutcomeOOM, oomDetail(res.OOMKilledMB)
	}
	return res, "", ""
}

func (v *Validator) attempt(ctx context.Context, runner Runner, job Job, runID string, cfg *TaskConfig, image string, log *logstream.Broadcaster, stash *stateStash) attempt {
	labels := map[string]string{LabelTask: job.TaskID, LabelRun: runID}
	spec := ExecSpec{TaskDir: job.TaskDir, Image: image, Config: cfg, Labels: labels}
	switch job.Mode {
	case ModeNop, ModeOracle:
		spec.Oracle = job.Mode == ModeOracle
		spec.KeepTestLog = job.Mode == ModeNop || job.ShareStates // to see that the suite ran; for gold
		res, o, msg := v.exec(ctx, runner, spec, log)
		if o != "" {
			return attempt{outcome: o, detail: msg}
		}
		stash.put(job, spec.Oracle, runID, res)
		a := judgeReward(job.Mode, res)
		// Only a test.sh that names its log format (curate's generated ones)
		// can be checked for a suite that never ran; an imported task's
		// own test.sh is judged by its reward alone, as Harbor does.
		if format := logFormat(job.TaskDir); job.Mode == ModeNop && a.outcome == pipeline.OutcomeOK && res.HasTestLog && format != "" {
			if rep := parse.ForFormat(format, res.TestLog); len(rep.Tests) == 0 && !rep.Ran {
				a.outcome, a.detail = pipeline.OutcomeNopNotRun, "NOP reward 0, but the log shows no sign the test suite ran"
			}
		}
		return a
	default: // gold
		spec.KeepTestLog = true
		var reports [3]*parse.Report
		format := logFormat(job.TaskDir)
		states := []bool{false, true}
		if v.Runs <= 1 {
			// Repeats already run each state more than once; else the fixed
			// state runs twice (unless its ids are plain names), so an id
			// carrying a time, a random value or an address is left out.
			states = append(states, true)
		}
		for i, oracle := range states {
			state := map[bool]string{false: "buggy", true: "fixed"}[oracle]
			if i == 2 && plainIDs(reports[1]) {
				log.Line("curate: gold: every test id of the fixed state is a plain name (no digit, value or temporary path): not run again")
				break
			}
			if i == 2 {
				state = stateFixedAgain
			}
			log.Line("curate: gold: " + state + " state")
			spec.Oracle = oracle
			var res *ExecResult
			if shared, ok := stash.take(job, oracle); ok && i < 2 {
				log.Line(SharedOutputLine(state, shared.runID, map[bool]string{false: ModeNop, true: ModeOracle}[oracle]))
				res = shared.res
			} else {
				var o pipeline.Outcome
				var msg string
				if res, o, msg = v.exec(ctx, runner, spec, log); o != "" {
					return attempt{outcome: o, detail: state + " state: " + msg}
				}
			}
			rep, from := testReport(res, format)
			if from == "ctrf.json" {
				logReportedTests(log, rep)
			}
			log.Line(fmt.Sprintf("curate: gold: %s state: %d tests from %s", state, len(rep.Tests), from))
			if len(rep.Tests) == 0 && !rep.Ran && !oracle {
				// The PR's tests may not even load without the fix (they use
				// what it adds). The fixed state decides: when it runs them,
				// they count as failing here (missing on the buggy state).
				log.Line("curate: gold: the suite did not start on the buggy state; its tests count as failing if they run on the fixed state")
				reports[i] = &parse.Report{Framework: rep.Framework}
				continue
			}
			if len(rep.Tests) == 0 && !rep.Ran {
				return attempt{outcome: pipeline.OutcomeInfraError, detail: state + " state: the log shows no sign the test suite ran"}
			}
			if res.TestExit > 0 && rep.Failing() == 0 {
				return attempt{outcome: pipeline.OutcomeInfraError, detail: fmt.Sprintf("%s state: test.sh exited %d but no failing test was parsed (%s)", state, res.TestExit, rep.Framework)}
			}
			reports[i] = rep
		}
		return attempt{outcome: pipeline.OutcomeOK, buggy: reports[0], fixed: reports[1], again: reports[2]}
	}
}

// judgeReward applies "valid = NOP exactly 0, Oracle exactly 1".
func judgeReward(mode string, res *ExecResult) attempt {
	r, err := ReadReward(res)
	if err != nil {
		var re *RewardError
		if errors.As(err, &re) {
			return attempt{outcome: re.Outcome, detail: re.Msg}
		}
		return attempt{outcome: pipeline.OutcomeRewardInvalid, detail: err.Error()}
	}
	a := attempt{reward: &r}
	switch {
	case mode == ModeNop && r == 0, mode == ModeOracle && r == 1:
		a.outcome = pipeline.OutcomeOK
	case mode == ModeNop && r == 1:
		a.outcome, a.detail = pipeline.OutcomeNopPassed, "the tests pass without any change: they do not catch the bug"
	case mode == ModeOracle && r == 0:
		a.outcome, a.detail = pipeline.OutcomeOracleFailed, "the reference solution does not pass the tests"
	default:
		want := map[string]int{ModeNop: 0, ModeOracle: 1}[mode]
		a.outcome, a.detail = pipeline.OutcomeRewardInvalid, fmt.Sprintf("%s reward %g: want exactly %d", mode, r, want)
	}
	return a
}

// summarize folds the attempts into the run: the same result every time is
// that result; differing rewards or test statuses are flaky.
func summarize(mode string, as []attempt, run *pipeline.Run, inPRFile func(id string) bool) {
	run.Attempt = len(as)
	last := as[len(as)-1]
	for _, a := range as {
		switch a.outcome {
		case pipeline.OutcomeCancelled, pipeline.OutcomeInfraError, pipeline.OutcomeBuildFailed:
			run.Outcome, run.Detail = a.outcome, a.detail
			return
		}
	}
	if mode == ModeGold && allOK(as) {
		gold(as, run, inPRFile)
		return
	}
	first := as[0]
	same := true
	for _, a := range as[1:] {
		if a.outcome != first.outcome || !sameReward(a.reward, first.reward) {
			same = false
		}
	}
	if same {
		run.Outcome, run.Detail, run.Reward = last.outcome, last.detail, last.reward
		return
	}
	var parts []string
	for i, a := range as {
		s := string(a.outcome)
		if a.reward != nil {
			s = fmt.Sprintf("reward %g", *a.reward)
		}
		parts = append(parts, fmt.Sprintf("#%d %s", i+1, s))
	}
	run.Outcome = pipeline.OutcomeFlaky
	run.Detail = "results differ between repeats: " + strings.Join(parts, ", ")
}

func allOK(as []attempt) bool {
	for _, a := range as {
		if a.outcome != pipeline.OutcomeOK {
			return false
		}
	}
	return true
}

func sameReward(a, b *float64) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

func firstN(s []string, n int) []string {
	if len(s) > n {
		return append(s[:n:n], "...")
	}
	return s
}

// noEngine stands in when a Validator has no runner: every run is an
// infrastructure error instead of a panic.
type noEngine struct{}

func (noEngine) Host() string { return "none" }
func (noEngine) Image(context.Context, string, io.Writer) (string, bool, error) {
	return "", false, infra("no Docker engine configured")
}
func (noEngine) Exec(context.Context, ExecSpec, Output) (*ExecResult, error) {
	return nil, infra("no Docker engine configured")
}
