package validate

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"curate/pipeline"
	"curate/pipeline/validate/parse"
)

// A gold run's log holds, for each attempt, the test output of the buggy
// state after "curate: gold: buggy state" and of the fixed state after
// "curate: gold: fixed state", each ended by a "curate: gold: <state>
// state: N tests from …" line. GoldMatrix parses those sections again to
// show every test's status in both states, and where in the log it was
// read; the run's FAIL_TO_PASS, PASS_TO_PASS and flaky lists (decided when
// it ran) mark them.

// Gold states, in the matrix's column order.
const (
	StateBuggy = 0
	StateFixed = 1
)

var stateNames = [2]string{"buggy", "fixed"}

// SharedOutputLine is gold's log line for a state graded from the output
// of another run of the batch (run runID, of mode), not run again.
func SharedOutputLine(state, runID, mode string) string {
	return fmt.Sprintf("curate: gold: %s state: the tests' output of run %s (%s), not run again", state, runID, mode)
}

// SharesOutput says whether gold's log says its state (StateBuggy or
// StateFixed) was graded from run runID's output.
func SharesOutput(goldLog []byte, state int, runID, mode string) bool {
	return bytes.Contains(goldLog, []byte(SharedOutputLine(stateNames[state], runID, mode)))
}

// stateFixedAgain names the gold run's second run of the fixed state (the
// one that keeps test ids carrying a time or an address out of the task);
// the matrix reads it as another attempt of the fixed state.
const stateFixedAgain = "fixed (again, for stable test ids)"

// LogPlace is a line of a run's log: its 0-based number and the byte
// offset where it starts; Line -1 when the result was not read from the
// log (ctrf.json).
type LogPlace struct {
	Line   int
	Offset int64
}

// MatrixRow is one test of a gold run.
type MatrixRow struct {
	Test string
	// Class is "F2P", "P2P" or "flaky" from the run's lists, "" for a test
	// in none (failing or skipped in both states...).
	Class string
	// Status per state, one per run of that state ("" where a run did not
	// report the test); the fixed state runs twice per attempt when its
	// second run checks for stable ids.
	Status [2][]parse.Status
	// At is where the last attempt's result of each state is in the log.
	At [2]LogPlace
}

// Last is the test's status in the last attempt of a state.
func (r *MatrixRow) Last(state int) parse.Status {
	if s := r.Status[state]; len(s) > 0 {
		return s[len(s)-1]
	}
	return ""
}

// Differs reports whether the attempts disagree on a state.
func (r *MatrixRow) Differs(state int) bool {
	s := r.Status[state]
	for _, x := range s {
		if x != s[0] {
			return true
		}
	}
	return false
}

// Matrix is a gold run's tests × (buggy, fixed).
type Matrix struct {
	RunID    string
	Attempts int
	Format   string // the parser that read the log
	Rows     []MatrixRow
	// Unplaced counts the run's listed tests the log's sections did not
	// name (their results came from a report file).
	Unplaced int
}

// maxSection bounds one state's test output read into memory, as gold
// grading reads at most MaxTestLog.
const maxSection = MaxTestLog

// GoldMatrix reads a finished gold run's log and builds its matrix. format
// is the task's declared log format ("" reads with every parser, as
// grading does); TaskLogFormat finds it. Memory is one state's section at
// a time, at most MaxTestLog.
func GoldMatrix(ctx context.Context, run *pipeline.Run, format string) (*Matrix, error) {
	if run.Mode != ModeGold {
		return nil, fmt.Errorf("run %s is a %s run: only gold runs test both states", run.ID, run.Mode)
	}
	if run.LogPath == "" {
		return nil, fmt.Errorf("run %s has no log file", run.ID)
	}
	f, err := os.Open(run.LogPath)
	if err != nil {
		return nil, fmt.Errorf("gold matrix of %s: %w", run.ID, err)
	}
	defer f.Close()
	m := &Matrix{RunID: run.ID}
	rows := map[string]*MatrixRow{}
	row := func(name string) *MatrixRow {
		r := rows[name]
		if r == nil {
			r = &MatrixRow{Test: name, At: [2]LogPlace{{Line: -1}, {Line: -1}}}
			rows[name] = r
		}
		return r
	}
	attempts := [2]int{}
	// One section at a time: its bytes, the log line of its first line and
	// the offset of each of its lines (to place results by offset).
	var (
		sec      []byte
		secState = -1
		secLines []int
		secOffs  []int64
		// reported are the section's results as grading read them from
		// a report file (goldreport.go); they stand over the log's.
		reported = map[string]parse.Status{}
	)
	finish := func() {
		if secState < 0 {
			return
		}
		rep := parse.ForFormat(format, sec)
		m.Format = rep.Framework
		if len(reported) > 0 {
			rep, m.Format = &parse.Report{Tests: reported}, "ctrf.json"
			reported = map[string]parse.Status{}
		}
		n := attempts[secState]
		for name, st := range rep.Tests {
			r := row(name)
			for len(r.Status[secState]) < n {
				r.Status[secState] = append(r.Status[secState], "")
			}
			r.Status[secState] = append(r.Status[secState], st)
			if l := rep.Line(name); l > 0 && l <= len(secOffs) {
				r.At[secState] = LogPlace{Line: secLines[l-1], Offset: secOffs[l-1]}
			} else {
				r.At[secState] = LogPlace{Line: -1}
			}
		}
		attempts[secState]++
		sec, secState, secLines, secOffs = sec[:0], -1, secLines[:0], secOffs[:0]
	}
	br := bufio.NewReaderSize(f, 256<<10)
	var off int64
	for line := 0; ; line++ {
		if line%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		text, n, err := readLine(br)
		if errors.Is(err, io.EOF) && n == 0 {
			break
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("gold matrix of %s: %w", run.ID, err)
		}
		start := off
		off += n
		t := ""
		if bytes.HasPrefix(text, []byte("curate: ")) { // only curate's own lines mark sections
			t = strings.TrimRight(string(text), "\r\n")
		}
		if strings.HasPrefix(t, "curate: outcome ") {
			break // the validator's last line: what follows is not the run's
		}
		switch {
		case t == "curate: gold: buggy state" || t == "curate: gold: fixed state" || t == "curate: gold: "+stateFixedAgain+" state":
			finish()
			secState = StateBuggy
			if strings.HasSuffix(t, "fixed state") || strings.Contains(t, stateFixedAgain) {
				secState = StateFixed
			}
		case secState >= 0 && strings.HasSuffix(t, ", not run again") && strings.Contains(t, " state: the tests' output of run "):
			// Graded from another run's execution (one per state): not the
			// state's end; its reported results, if any, follow.
		case strings.HasPrefix(t, goldTestPrefix) && secState >= 0:
			if name, st, ok := parseReportedTest(t); ok {
				reported[name] = st
			}
		case t == "curate: verifier: bash /tests/test.sh" && secState >= 0:
			// the fixed state's section starts with the oracle's output:
			// grading reads test.sh's alone
			sec, secLines, secOffs = sec[:0], secLines[:0], secOffs[:0]
		case strings.HasPrefix(t, "curate: gold: buggy state: ") || strings.HasPrefix(t, "curate: gold: fixed state: "),
			strings.HasPrefix(t, "curate: gold: "+stateFixedAgain+" state: "),
			strings.HasPrefix(t, "curate: attempt "):
			finish()
		default:
			// Only the validator's block right before the state's end
			// line counts: a suite printing such lines does not.
			if len(reported) > 0 {
				reported = map[string]parse.Status{}
			}
			if secState >= 0 && len(sec)+len(text) <= maxSection {
				sec = append(sec, text...)
				if !strings.HasSuffix(string(text), "\n") {
					sec = append(sec, '\n')
				}
				secOffs, secLines = append(secOffs, start), append(secLines, line)
			}
		}
		if errors.Is(err, io.EOF) {
			break
		}
	}
	finish()
	// Attempts are the buggy state's runs: the fixed state may have one
	// more per attempt (its second run, for stable ids).
	m.Attempts = attempts[StateBuggy]
	if m.Attempts == 0 {
		m.Attempts = attempts[StateFixed]
	}
	class := map[string]string{}
	for _, n := range run.FailToPass {
		class[n] = "F2P"
	}
	for _, n := range run.PassToPass {
		class[n] = "P2P"
	}
	for _, n := range run.Flaky {
		class[n] = "flaky"
	}
	for name, c := range class {
		if rows[name] == nil {
			m.Unplaced++
		}
		row(name).Class = c
	}
	for _, r := range rows {
		for s := range r.Status {
			for len(r.Status[s]) < attempts[s] { // missing in the last attempts
				r.Status[s] = append(r.Status[s], "")
			}
		}
		m.Rows = append(m.Rows, *r)
	}
	sort.Slice(m.Rows, func(i, j int) bool { return m.Rows[i].Test < m.Rows[j].Test })
	return m, nil
}

// readLine reads one line with its newline and how many bytes it took,
// bounded: the rest of a line longer than a section may hold is dropped.
func readLine(br *bufio.Reader) ([]byte, int64, error) {
	var out []byte
	var n int64
	for {
		b, err := br.ReadSlice('\n')
		n += int64(len(b))
		if len(out) < maxSection {
			out = append(out, b[:min(len(b), maxSection-len(out))]...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return out, n, err
	}
}

// TaskLogFormat is the log format a task's test.sh declares ("" when it
// names none).
func TaskLogFormat(taskDir string) string { return logFormat(taskDir) }

// StateName is "buggy" or "fixed".
func StateName(state int) string { return stateNames[state] }
