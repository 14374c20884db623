// Command statementstudy measures curate's problem statements on a
// workspace of mined tasks (docs/statements.md holds its tables): where
// the statements come from, how many of the tasks whose tests call new
// public names get an Interface section, the underspecified flag before
// (the old instruction: issue, else PR body, else title) and after, the
// leak flags to read by hand, and, given TaskGen's instructions, a
// per-task comparison.
//
//	go run ./internal/statementstudy -w WORKSPACE [-per-repo 5] [-status valid] [-taskgen FILE.jsonl]
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"

	"curate/app"
	"curate/pipeline"
	"curate/pipeline/statement"
	"curate/pipeline/unidiff"
	"curate/workspace"
)

func main() {
	wsDir := flag.String("w", ".", "workspace (several: comma-separated)")
	perRepo := flag.Int("per-repo", 5, "tasks per repository")
	taskgen := flag.String("taskgen", "", "TaskGen instructions (JSONL) to compare with")
	leaks := flag.Int("leaks", 20, "leak flags to print for reading")
	status := flag.String("status", "", "only tasks of this status (valid: the validated ones)")
	flag.Parse()
	if err := run(*wsDir, *perRepo, *taskgen, *leaks, pipeline.Status(*status)); err != nil {
		fmt.Fprintln(os.Stderr, "statementstudy:", err)
		os.Exit(1)
	}
}

// row is one task's measurement.
type row struct {
	id, repo, lang, source string
	newNames               []string // new public names the tests use (independent of the scanners)
	iface                  []statement.Decl
	before, after          []string
	words                  int
	text                   string
	fix                    []unidiff.File
	// f2p and messages: the FAIL_TO_PASS tests, and how many of them
	// hints = "failures" finds a NOP message for (suite: a compile error).
	f2p, messages int
	suite         bool
	// literals: values the tests check that only the fix brings (the
	// independent count); missing: those the instruction does not give.
	literals, missing []string
	strict            bool
}

func run(dirs string, perRepo int, taskgen string, nLeaks int, status pipeline.Status) error {
	var sample, all []*row
	per := map[string]int{}
	seen := map[string]bool{}
	// Several workspaces (comma-separated) make one sample; a task in two
	// counts once, from the first.
	for _, dir := range strings.Split(dirs, ",") {
		if err := collect(dir, perRepo, status, per, seen, &sample, &all); err != nil {
			return err
		}
	}
	report(sample, "the sample")
	printLeaks(all, nLeaks)
	if taskgen != "" {
		return compare(all, taskgen)
	}
	return nil
}

func collect(dir string, perRepo int, status pipeline.Status, per map[string]int, seen map[string]bool, sample, all *[]*row) error {
	ctx := context.Background()
	ws, err := workspace.Open(ctx, dir)
	if err != nil {
		return err
	}
	defer ws.Close()
	tasks, err := ws.Store.Tasks(ctx)
	if err != nil {
		return err
	}
	sort.Slice(tasks, func(i, j int) bool { return tasks[i].ID > tasks[j].ID })
	for _, lt := range tasks {
		if lt.Features.Int(pipeline.FeatTestFiles) == 0 || lt.Features.Int(pipeline.FeatFilesChanged) == 0 {
			continue
		}
		if status != "" && lt.Status != status || seen[lt.ID] {
			continue
		}
		seen[lt.ID] = true
		t, err := ws.Store.Task(ctx, lt.ID)
		if err != nil {
			return err
		}
		r, err := measure(ctx, ws, t)
		if err != nil {
			fmt.Fprintln(os.Stderr, t.ID+":", err)
			continue
		}
		*all = append(*all, r)
		if per[t.Repo] < perRepo {
			per[t.Repo]++
			*sample = append(*sample, r)
		}
	}
	return nil
}

func measure(ctx context.Context, ws *workspace.Workspace, t *pipeline.Task) (*row, error) {
	in, err := app.ReadStatementInput(ctx, t)
	if err != nil {
		return nil, err
	}
	st, after, err := app.ComposeStatement(ws, t, in)
	if err != nil {
		return nil, err
	}
	names := newPublicNames(in)
	// The old instruction: the issue text, else the PR body, else the
	// title, cleaned of nothing and with no Interface section.
	old := statement.Statement{Title: t.Title, Source: statement.SourceTitle, Text: t.Title}
	issue, _ := t.Extra["issue_text"].(string)
	switch {
	case strings.TrimSpace(issue) != "":
		old.Text, old.Source = issue, statement.SourceIssue
	case strings.TrimSpace(t.Body) != "":
		old.Text, old.Source = t.Body, statement.SourcePRBody
	}
	before := statement.Check(old, statement.Evidence{Fix: in.Fix, UsedNew: names})
	// after is what curate recorded, plus the independent names check.
	named := st.Title + "\n" + st.Text + "\n" + statement.InterfaceSection(st.Interface)
	for _, n := range names {
		if !has(after, statement.FlagUnderspecified) && !regexp.MustCompile(`\b`+regexp.QuoteMeta(n)+`\b`).MatchString(named) {
			after = statement.SortFlags(append(after, statement.FlagUnderspecified))
		}
	}
	r := &row{id: t.ID, repo: t.Repo, lang: t.Language, source: st.Source, newNames: names, iface: st.Interface,
		before: before, after: after, words: statement.Words(st.Title + " " + st.Text), text: st.Text, fix: in.Fix}
	r.f2p = len(pipeline.ExtraStrings(t, "FAIL_TO_PASS"))
	r.literals = fixLiterals(in.Fix, in.Tests)
	r.missing = unstated(r.literals, statement.Render(st, app.Hidden(in)))
	r.strict = has(after, statement.FlagStrictTests)
	msgs, err := app.FailureMessages(ctx, ws, t)
	if err != nil {
		return nil, err
	}
	for k := range msgs {
		if k == "" {
			r.suite = true
		} else {
			r.messages++
		}
	}
	return r, nil
}

// declRe finds a declared name on an added line, by keyword (Go, Python,
// Rust, JS/TS, Java/C++ classes) or as name( at the start of a C-family
// declaration. Deliberately not the scanners: it checks them.
var declRe = regexp.MustCompile(`\b(?:func(?:\s*\([^)]*\))?|def|fn|function|class|struct|enum|interface|trait|type|const|static)\s+\*?([A-Za-z_]\w*)|^\s*(?:[A-Za-z_][\w:<>,]*[\s\*&]+)+([A-Za-z_]\w*)\s*\([^=;]*[{,)]?\s*$`)

// newPublicNames: names declared on the fix's added lines that no base
// version of the fix's files mentions, that the tests' added lines use.
func newPublicNames(in *app.StatementInput) []string {
	testWords := map[string]bool{}
	for _, f := range in.Tests {
		for _, h := range f.Hunks {
			for _, l := range h.Lines {
				if l.Kind == unidiff.Added {
					for _, w := range regexp.MustCompile(`[A-Za-z_]\w*`).FindAllString(l.Text, -1) {
						testWords[w] = true
					}
				}
			}
		}
	}
	out := map[string]bool{}
	for _, f := range in.Fix {
		var base string
		if in.Files.Base != nil && f.OldName != "/dev/null" {
			if b, err := in.Files.Base(f.OldName); err == nil {
				base = string(b)
			}
		}
		for _, h := range f.Hunks {
			for _, l := range h.Lines {
				if l.Kind != unidiff.Added {
					continue
				}
				for _, m := range declRe.FindAllStringSubmatch(l.Text, -1) {
					n := m[1] + m[2]
					if m[2] != "" && !cFamily(f.Name()) {
						continue // name( alone declares only in C, C++ and Java
					}
					if m[2] != "" && regexp.MustCompile(`^\s*(?:return|raise|throw|new|else|case|await|yield|delete|goto)\b`).MatchString(l.Text) {
						continue
					}
					if len(n) < 3 || strings.HasPrefix(n, "_") || !testWords[n] || keyword[n] || regexp.MustCompile(`\b`+n+`\b`).MatchString(base) {
						continue
					}
					if strings.HasSuffix(f.Name(), ".go") && !(n[0] >= 'A' && n[0] <= 'Z') {
						continue
					}
					out[n] = true
				}
			}
		}
	}
	var names []string
	for n := range out {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

var keyword = map[string]bool{"if": true, "for": true, "while": true, "switch": true, "return": true, "sizeof": true, "catch": true, "new": true, "assert": true,
	"super": true, "override": true, "raise": true, "throw": true, "await": true, "yield": true, "else": true, "case": true}

func cFamily(p string) bool {
	for _, ext := range []string{".c", ".h", ".cc", ".cpp", ".hpp", ".hh", ".cxx", ".java"} {
		if strings.HasSuffix(p, ext) {
			return true
		}
	}
	return false
}

func has(flags []string, f string) bool {
	for _, x := range flags {
		if x == f {
			return true
		}
	}
	return false
}

func report(rows []*row, what string) {
	langs, sources := map[string]int{}, map[string]int{}
	withNames, named, underB, underA := 0, 0, 0, 0
	flagsA := map[string]int{}
	for _, r := range rows {
		langs[r.lang]++
		sources[r.source]++
		if len(r.newNames) > 0 {
			withNames++
			if len(r.iface) > 0 {
				named++
			}
		}
		if has(r.before, statement.FlagUnderspecified) {
			underB++
		}
		if has(r.after, statement.FlagUnderspecified) {
			underA++
		}
		for _, f := range r.after {
			flagsA[f]++
		}
	}
	n := len(rows)
	pct := func(k int) string { return fmt.Sprintf("%d (%.0f%%)", k, 100*float64(k)/float64(max(n, 1))) }
	fmt.Printf("## %d tasks: %s\n\nlanguages: %v\n\n| statement source | tasks |\n|---|---|\n", n, what, langs)
	for _, k := range []string{statement.SourceIssue, statement.SourcePRBody, statement.SourceCommit, statement.SourceTitle} {
		fmt.Printf("| %s | %s |\n", k, pct(sources[k]))
	}
	fmt.Printf("\n| measure | value |\n|---|---|\n")
	fmt.Printf("| tests call new public names | %d |\n| ... of those with an Interface section | %d of %d |\n", withNames, named, withNames)
	fmt.Printf("| underspecified before | %s |\n| underspecified after | %s |\n", pct(underB), pct(underA))
	for _, f := range statement.AllFlags {
		fmt.Printf("| flag %s after | %s |\n", f, pct(flagsA[f]))
	}
	withF2P, withMsg, suite, tests, msgs := 0, 0, 0, 0, 0
	for _, r := range rows {
		if r.f2p > 0 {
			withF2P++
			tests += r.f2p
			msgs += r.messages
			if r.messages > 0 {
				withMsg++
			} else if r.suite {
				suite++
			}
		}
	}
	fmt.Printf("| hints failures: tasks with a message for a FAIL_TO_PASS test | %d of %d (%d more: the suite's compile error) |\n", withMsg, withF2P, suite)
	fmt.Printf("| hints failures: FAIL_TO_PASS tests with a message | %d of %d |\n", msgs, tests)
	withLit, allGiven, strictN := 0, 0, 0
	for _, r := range rows {
		if len(r.literals) > 0 {
			withLit++
			if len(r.missing) == 0 {
				allGiven++
			}
		}
		if r.strict {
			strictN++
		}
	}
	fmt.Printf("| tests check fix-introduced literals (independent count) | %d |\n| ... whose instruction gives every one | %d of %d |\n| strict_tests | %s |\n", withLit, allGiven, withLit, pct(strictN))
	fmt.Println()
	for _, r := range rows {
		if len(r.missing) > 0 {
			fmt.Printf("- unstated literals: %s %q (strict_tests %v)\n", r.id, r.missing, r.strict)
		}
	}
	for _, r := range rows {
		if r.f2p > 0 && r.messages == 0 && !r.suite {
			fmt.Printf("- no failure message: %s (%d FAIL_TO_PASS)\n", r.id, r.f2p)
		}
	}
	for _, r := range rows {
		if len(r.newNames) > 0 && len(r.iface) == 0 {
			fmt.Printf("- no Interface: %s names %v\n", r.id, r.newNames)
		}
	}
}

func printLeaks(rows []*row, n int) {
	total := 0
	for _, r := range rows {
		if has(r.after, statement.FlagLeak) {
			total++
		}
	}
	fmt.Printf("\n## leak flags: %d of %d tasks measured (the first %d follow)\n\n", total, len(rows), n)
	for _, r := range rows {
		if n == 0 {
			return
		}
		if has(r.after, statement.FlagLeak) {
			n--
			fmt.Printf("### %s (%s)\n\n%s\n\n", r.id, r.source, excerpt(r.text, 900))
		}
	}
}

func excerpt(s string, n int) string {
	if len(s) > n {
		return s[:n] + " ..."
	}
	return s
}

// compare prints curate's statement against TaskGen's, per PR: words, and
// whether each names the new public names the tests use.
func compare(rows []*row, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	byPR := map[string]*row{}
	for _, r := range rows {
		byPR[r.id] = r
	}
	fmt.Printf("\n## against TaskGen (%s)\n\n| task | curate words | TaskGen words | new names tests use | curate names them | TaskGen names them | curate source |\n|---|---|---|---|---|---|---|\n", path)
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	var n, found, cw, tw, withNames, cNames, tNames, tSome int
	for sc.Scan() {
		var tg struct {
			ID          string `json:"taskgen_id"`
			Instruction string `json:"instruction"`
		}
		if err := json.Unmarshal(sc.Bytes(), &tg); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		n++
		r := byPR[tg.ID]
		if r == nil {
			fmt.Printf("| %s | (not mined with tests) | %d | | | | |\n", tg.ID, statement.Words(tg.Instruction))
			continue
		}
		found++
		ours := r.text + "\n" + statement.InterfaceSection(r.iface)
		cw += r.words
		tw += statement.Words(tg.Instruction)
		cn, tn := "-", "-"
		if len(r.newNames) > 0 {
			withNames++
			cn, tn = named(ours, r.newNames), named(tg.Instruction, r.newNames)
			if cn == "all" {
				cNames++
			}
			if tn == "all" {
				tNames++
			}
			if tn != "none" {
				tSome++
			}
		}
		fmt.Printf("| %s | %d | %d | %s | %s | %s | %s |\n", tg.ID, r.words, statement.Words(tg.Instruction), strings.Join(r.newNames, " "), cn, tn, r.source)
	}
	fmt.Printf("\n%d TaskGen tasks, %d mined by curate with tests; mean words curate %d, TaskGen %d; of %d whose tests call new public names, curate names them all in %d, TaskGen in %d (at least one in %d).\n",
		n, found, cw/max(found, 1), tw/max(found, 1), withNames, cNames, tNames, tSome)
	return sc.Err()
}

// named says whether text names all, some or none of names.
func named(text string, names []string) string {
	k := 0
	for _, n := range names {
		if regexp.MustCompile(`\b` + regexp.QuoteMeta(n) + `\b`).MatchString(text) {
			k++
		}
	}
	switch k {
	case len(names):
		return "all"
	case 0:
		return "none"
	}
	return "some"
}
