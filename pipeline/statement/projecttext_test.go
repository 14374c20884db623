package statement

import (
	"strings"
	"testing"
)

// What the project wrote about a change, read from real merged commits.
func TestProjectTextOnRealPRs(t *testing.T) {
	repos := sharedRepos(t)

	// click 665736b "Mark commands as optional in the synopsis": a wrapped
	// CHANGES.rst entry with :issue: and :pr: roles, and a docs page.
	fix, _, _ := realPR(t, repos, "pallets+click", "665736bc85a19a7a2357c071394b4a545617faa3")
	entries := ChangelogLines(fix)
	want := "A :class:`Group` with ``invoke_without_command=True`` marks its subcommand as optional in the usage help, showing ``[COMMAND]`` instead of ``COMMAND``."
	if len(entries) != 1 || entries[0] != want {
		t.Errorf("changelog entries %q, want [%q]", entries, want)
	}
	if docs := DocLines(fix); len(docs) == 0 {
		t.Error("no lines from docs/documentation.md")
	}

	// cobra #2238: the PR documents the new option on its docs site
	// (site/content/completions/_index.md), with a heading.
	fix, _, _ = realPR(t, repos, "spf13+cobra", "6dec1ae26659a130bdb4c985768d1853b0e1bc06")
	docs := strings.Join(DocLines(fix), "\n")
	if !strings.Contains(docs, "SetDefaultShellCompDirective(ShellCompDirectiveNoFileComp)") {
		t.Errorf("docs lines lack the usage the PR documents:\n%s", docs)
	}
	text, sources := Compose(Sources{Title: "The default ShellCompDirective can be customized for a command and its subcommands", Docs: DocLines(fix)})
	if strings.Join(sources, ",") != SourceDocs || !strings.Contains(text, "**Change the default ShellCompDirective**") || strings.Contains(text, "\n### ") {
		t.Errorf("composed from %v:\n%s", sources, text)
	}

	// cobra #2397: the doc comment of NoDuplicateArgs, the name its tests use.
	fix, tests, files := realPR(t, repos, "spf13+cobra", "ad460ea8f249db69c943a365fb84f3a59042d54e")
	decls, _, err := Interface(fix, tests, files)
	if err != nil {
		t.Fatal(err)
	}
	docc := DocComments(decls, files)
	if len(docc) != 1 || docc[0] != "`NoDuplicateArgs`: NoDuplicateArgs returns an error if there are any duplicate positional args." {
		t.Errorf("doc comments %q", docc)
	}
	if leaks(strings.Join(docc, "\n"), fix, CodeLines(fix, files)) {
		t.Error("quoting the doc comment counts as a leak of the fix")
	}
}

// Compose adds each project text after the chosen one, in order, and only
// the lines the text does not already say.
func TestComposeOrderAndDedup(t *testing.T) {
	text, sources := Compose(Sources{
		Title:       "Add retries",
		PRBody:      "Requests that fail with 503 are retried up to three times with backoff.",
		Changelog:   []string{"Requests that fail with 503 are retried up to three times with backoff.", "New `Retry` option."},
		DocComments: []string{"`Retry`: Retry sets how many times a request is tried again."},
		Docs:        []string{"## Retries", "", "Set `Retry: 3` to retry.", "```go", "c.Retry = 3"},
	})
	if got := strings.Join(sources, ","); got != "pr_body,changelog,doc_comment,docs" {
		t.Errorf("sources %s", got)
	}
	if strings.Count(text, "retried up to three times") != 1 || !strings.Contains(text, "- New `Retry` option.") {
		t.Errorf("changelog paragraph:\n%s", text)
	}
	if strings.Count(text, "```")%2 != 0 || strings.Contains(text, "## Retries") {
		t.Errorf("docs paragraph (fence closed, heading not a section):\n%s", text)
	}
	if text, sources := Compose(Sources{Title: "Fix it"}); text != "Fix it" || sources[0] != SourceTitle {
		t.Errorf("title only: %q %v", text, sources)
	}
}

// A comment above a changed name that is a note to the developers is not
// its contract: a held-out TypeScript PR's statement quoted
// "`deepMergeInternal`: TODO: Make this strongly-typed (no `any`)." as the
// documentation of the names involved.
func TestDeveloperNoteIsNoDocComment(t *testing.T) {
	src := "// TODO: Make this strongly-typed (no `any`).\nexport const deepMergeInternal = (a: any, b: any): any => ({...a, ...b});\n\n" +
		"/** Merge two option objects, the second winning. */\nexport const deepMerge = (a: any, b: any): any => deepMergeInternal(a, b);\n"
	files := Files{Fixed: func(string) ([]byte, error) { return []byte(src), nil }}
	decls := []Decl{{Name: "deepMergeInternal", File: "source/utils/merge.ts", Language: "typescript"}, {Name: "deepMerge", File: "source/utils/merge.ts", Language: "typescript"}}
	got := DocComments(decls, files)
	if len(got) != 1 || got[0] != "`deepMerge`: Merge two option objects, the second winning." {
		t.Errorf("doc comments %q, want only deepMerge's contract", got)
	}
}
