package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"

	"curate/internal/atomicfile"
	gitcmd "curate/internal/git"
	"curate/pipeline"
	"curate/pipeline/statement"
	"curate/pipeline/taskdir"
	"curate/pipeline/unidiff"
	"curate/pipeline/validate"
	"curate/workspace"
)

// StatementInput is what a task's statement is made from, read from its
// clone: the fix and test diffs between base and head, the fixed files.
type StatementInput struct {
	Sources statement.Sources
	Fix     []unidiff.File
	Tests   []unidiff.File
	Files   statement.Files
	// InBase reports whether a value occurs anywhere in the buggy tree
	// (git grep at the base commit); nil without a clone.
	InBase func(string) bool
	// Failures are the FAIL_TO_PASS tests' first messages in the NOP
	// run, for hints = "failures" (see FailureMessages).
	Failures map[string]string
}

// ReadStatementInput gathers t's sources and diffs from its clone. A task
// without a clone (imported) has sources only.
func ReadStatementInput(ctx context.Context, t *pipeline.Task) (*StatementInput, error) {
	in := &StatementInput{Sources: statementSources(ctx, t)}
	if t.SourcePath == "" || t.BaseCommit == "" || t.HeadCommit == "" {
		return in, nil
	}
	diff, err := gitcmd.Output(ctx, t.SourcePath, "diff", "--no-color", "--no-ext-diff", "--no-renames", t.BaseCommit, t.HeadCommit)
	if err != nil {
		return nil, fmt.Errorf("statement of %s: %w", t.ID, err)
	}
	files, err := unidiff.Parse(t.ID+" diff", string(diff))
	if err != nil {
		return nil, fmt.Errorf("statement of %s: %w", t.ID, err)
	}
	tests := testPaths(t)
	for _, f := range files {
		if tests[f.Name()] {
			in.Tests = append(in.Tests, f)
		} else {
			in.Fix = append(in.Fix, f)
		}
	}
	show := func(rev string) func(string) ([]byte, error) {
		return func(p string) ([]byte, error) { return gitcmd.Output(ctx, t.SourcePath, "show", rev+":"+p) }
	}
	in.Files = statement.Files{Fixed: show(t.HeadCommit), Base: show(t.BaseCommit)}
	in.Sources.Changelog = statement.ChangelogLines(in.Fix)
	in.Sources.Docs = statement.DocLines(in.Fix)
	in.InBase = func(s string) bool {
		// Exit 1 is "not found"; any other failure counts as found, so an
		// unreadable tree never makes a value look new.
		// A word counts only quoted: as a name in code it is not the value.
		args := []string{"grep", "-q", "-F", "-I", "-e", s}
		if statement.IsWord(s) {
			args = []string{"grep", "-q", "-F", "-I", "-e", `"` + s + `"`, "-e", "'" + s + "'", "-e", "`" + s + "`"}
		}
		err := gitcmd.Command(ctx, t.SourcePath, nil, append(args, t.BaseCommit, "--")...).Run()
		var exit *exec.ExitError
		return !(errors.As(err, &exit) && exit.ExitCode() == 1)
	}
	return in, nil
}

// statementSources maps a task's texts onto the statement's sources: a
// GitHub PR's body is its description; a squash commit's body is a commit
// message; a merge commit's PR branch gives its commits' messages.
func statementSources(ctx context.Context, t *pipeline.Task) statement.Sources {
	s := statement.Sources{Title: t.Title}
	s.IssueText, _ = t.Extra["issue_text"].(string)
	kind, _ := t.Extra["merge_kind"].(string)
	switch {
	case t.Source == "git" && kind == "squash":
		s.CommitBody = t.Body
	case t.Source == "git" && kind == "merge":
		s.PRBody = t.Body
		s.CommitBody = mergeMessages(ctx, t)
	default:
		s.PRBody = t.Body
	}
	return s
}

// mergeMessages are the messages of the commits a merge brought in,
// oldest first, without their subjects' repetition of the title.
func mergeMessages(ctx context.Context, t *pipeline.Task) string {
	if m, ok := t.Extra[pipeline.ExtraCommitMessages].(string); ok {
		return m
	}
	if t.SourcePath == "" || t.HeadCommit == "" {
		return ""
	}
	out, err := gitcmd.Output(ctx, t.SourcePath, "log", "--no-merges", "--reverse", "--format=%B%x00", t.HeadCommit+"^1.."+t.HeadCommit+"^2")
	if err != nil {
		return "" // not a two-parent merge in this clone: no branch to read
	}
	var parts []string
	for _, m := range strings.Split(string(out), "\x00") {
		if m = strings.TrimSpace(m); m != "" && !strings.EqualFold(m, strings.TrimSpace(t.Title)) {
			// As a squash commit lists them ("* subject", the body
			// indented), so the commit-body cleaner reads each message
			// as an item: chatter dropped, the title not repeated.
			lines := strings.Split(m, "\n")
			for i := 1; i < len(lines); i++ {
				if strings.TrimSpace(lines[i]) != "" {
					lines[i] = "  " + lines[i]
				}
			}
			parts = append(parts, "* "+strings.Join(lines, "\n"))
		}
	}
	msg := strings.Join(parts, "\n")
	if t.Extra != nil {
		t.Extra[pipeline.ExtraCommitMessages] = msg
	}
	return msg
}

func testPaths(t *pipeline.Task) map[string]bool {
	out := map[string]bool{}
	files, _ := t.Extra["files"].([]any)
	for _, f := range files {
		m, _ := f.(map[string]any)
		if test, _ := m["test"].(bool); test {
			p, _ := m["path"].(string)
			out[p] = true
		}
	}
	if fs, ok := t.Extra["files"].([]map[string]any); ok {
		for _, m := range fs {
			if test, _ := m["test"].(bool); test {
				p, _ := m["path"].(string)
				out[p] = true
			}
		}
	}
	return out
}

// GeneratedText is the statement text curate writes from in's sources
// (statement.Compose), doc comments included.
func GeneratedText(in *StatementInput) string {
	if in.Sources.DocComments == nil {
		if decls, _, err := statement.Interface(in.Fix, in.Tests, in.Files); err == nil {
			in.Sources.DocComments = statement.DocComments(append(decls, statement.ChangedDecls(in.Fix, in.Files)...), in.Files)
		}
	}
	text, _ := statement.Compose(in.Sources)
	return text
}

// HintsMode is the task's own [instructions] hints, else the workspace's.
func HintsMode(ws *workspace.Workspace, t *pipeline.Task) string {
	if h, _ := t.Extra[pipeline.ExtraHints].(string); h != "" {
		return h
	}
	if h := ws.Config.Instructions.Hints; h != "" {
		return h
	}
	return statement.HintsNone
}

// ComposeStatement makes t's statement and its flags without writing
// anything. A curator's text stands in for the generated one.
func ComposeStatement(ws *workspace.Workspace, t *pipeline.Task, in *StatementInput) (statement.Statement, []string, error) {
	decls, used, err := statement.Interface(in.Fix, in.Tests, in.Files)
	if err != nil {
		return statement.Statement{}, nil, fmt.Errorf("interface of %s: %w", t.ID, err)
	}
	in.Sources.DocComments = statement.DocComments(append(decls, statement.ChangedDecls(in.Fix, in.Files)...), in.Files)
	text, sources := statement.Compose(in.Sources)
	st := statement.Statement{Title: t.Title, Text: text, Source: sources[0], Sources: sources}
	if cur := t.Labels.Instruction; cur != "" {
		st.Text, st.Source, st.Sources = cur, statement.SourceCurator, []string{statement.SourceCurator}
	}
	st.Interface = decls
	all := statement.AllRequirements(in.Fix, in.Tests, in.Files, in.InBase)
	st.Requirements = statement.CapRequirements(all)
	testNames := statement.TestNames(in.Tests)
	mode := HintsMode(ws, t)
	st.Hints = statement.Hints(mode, pipeline.ExtraStrings(t, "FAIL_TO_PASS"), in.Failures)
	// The checks read what the agent reads: the text after redaction.
	shown := st
	if st.Source != statement.SourceCurator {
		shown.Title = statement.Redact(st.Title, Hidden(in))
		shown.Text = statement.Redact(st.Text, Hidden(in))
	}
	ev := statement.Evidence{Fix: in.Fix, TestFiles: pathsOf(in.Tests), TestNames: testNames, UsedNew: used, Hints: mode, CodeLines: statement.CodeLines(in.Fix, in.Files)}
	flags := statement.Check(shown, ev)
	st.Underspecified = statement.UnderspecifiedBecause(shown, ev)
	st.Strict = statement.Strict(all, statement.Render(st, Hidden(in)), pipeline.ExtraStrings(t, "FAIL_TO_PASS"))
	if len(st.Strict) > 0 {
		flags = statement.SortFlags(append(flags, statement.FlagStrictTests))
	}
	return st, flags, nil
}

// Hidden are the words instruction.md redacts: the changed files' paths
// and the tests' names.
func Hidden(in *StatementInput) []string {
	hide := pathsOf(in.Fix)
	return append(append(hide, pathsOf(in.Tests)...), statement.TestNames(in.Tests)...)
}

func pathsOf(fs []unidiff.File) []string {
	out := make([]string, 0, len(fs))
	for _, f := range fs {
		out = append(out, f.Name())
	}
	return out
}

// WriteStatement writes t's instruction.md into its task dir, records its
// source, interface and flags on t, and returns the dir's new digest.
func WriteStatement(ctx context.Context, ws *workspace.Workspace, t *pipeline.Task, dir string) (string, error) {
	in, err := ReadStatementInput(ctx, t)
	if err != nil {
		return "", err
	}
	if HintsMode(ws, t) == statement.HintsFailures {
		if in.Failures, err = FailureMessages(ctx, ws, t); err != nil {
			return "", err
		}
	}
	st, flags, err := ComposeStatement(ws, t, in)
	if err != nil {
		return "", err
	}
	hide := Hidden(in)
	if t.Extra == nil {
		t.Extra = map[string]any{}
	}
	t.Extra[pipeline.ExtraInstructionSource] = st.Source
	t.Extra[pipeline.ExtraInstructionSources] = st.Sources
	t.Extra[pipeline.ExtraInterface] = st.Interface
	t.Extra[pipeline.ExtraRequirements] = st.Requirements
	if len(st.Requirements) == 0 {
		delete(t.Extra, pipeline.ExtraRequirements)
	}
	t.Extra[pipeline.ExtraStatementFlags] = flags
	t.Extra[pipeline.ExtraUnderspecified] = st.Underspecified
	if len(st.Underspecified) == 0 {
		delete(t.Extra, pipeline.ExtraUnderspecified)
	}
	t.Extra[pipeline.ExtraStrictTests] = st.Strict
	if len(st.Strict) == 0 {
		delete(t.Extra, pipeline.ExtraStrictTests)
	}
	if len(st.Interface) == 0 {
		delete(t.Extra, pipeline.ExtraInterface)
	}
	if len(flags) == 0 {
		delete(t.Extra, pipeline.ExtraStatementFlags)
	}
	delete(t.Extra, pipeline.ExtraGenerated)
	if st.Source == statement.SourceCurator {
		gen := st
		gen.Text = GeneratedText(in)
		t.Extra[pipeline.ExtraGenerated] = statement.Render(gen, hide)
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, "instruction.md"), []byte(statement.Render(st, hide)), 0o644); err != nil {
		return "", err
	}
	problem, req := statement.Problem(st, hide)
	iface := statement.InterfaceSection(st.Interface)
	err = validate.EditSWEBenchRecord(dir, func(rec map[string]json.RawMessage) {
		for k, v := range map[string]string{"problem_statement": problem, "interface": iface, "requirements": req} {
			rec[k], _ = json.Marshal(v)
		}
	})
	if err != nil {
		return "", err
	}
	return taskdir.Digest(dir)
}

// TaskStrictTests are the tests recorded on t that check values its
// instruction does not give.
func TaskStrictTests(t *pipeline.Task) []statement.StrictTest {
	return decodeExtra[statement.StrictTest](t.Extra[pipeline.ExtraStrictTests])
}

// TaskRequirements is the Requirements section recorded on t, fresh or
// decoded from the store.
func TaskRequirements(t *pipeline.Task) []statement.Requirement {
	return decodeExtra[statement.Requirement](t.Extra[pipeline.ExtraRequirements])
}

// decodeExtra reads a list an Extra key holds: the typed slice a build
// just set, or the JSON the store gave back.
func decodeExtra[T any](v any) []T {
	switch v := v.(type) {
	case []T:
		return v
	case nil:
		return nil
	default:
		b, err := json.Marshal(v)
		if err != nil {
			return nil
		}
		var out []T
		if json.Unmarshal(b, &out) != nil {
			return nil
		}
		return out
	}
}

// TaskInterface is the Interface section recorded on t, fresh or decoded
// from the store.
func TaskInterface(t *pipeline.Task) []statement.Decl {
	return decodeExtra[statement.Decl](t.Extra[pipeline.ExtraInterface])
}
