package pipeline

// Task.Extra keys of the problem statement (package statement makes it;
// app writes it; list, show, the query language and exports read it).
const (
	ExtraInstructionSource  = "instruction_source"     // issue, pr_body, commit_body, changelog, doc_comment, docs, title or curator
	ExtraInstructionSources = "instruction_sources"    // every source of the text's paragraphs, in order
	ExtraInterface          = "interface"              // the Interface section's declarations
	ExtraRequirements       = "requirements"           // the Requirements section's values (statement.Requirement)
	ExtraStatementFlags     = "statement_flags"        // leak, test_leak, underspecified, strict_tests, link_only
	ExtraUnderspecified     = "underspecified_because" // what an underspecified statement leaves unsaid ("title only", "`Name` unnamed")
	ExtraStrictTests        = "strict_tests"           // per test, the checked values the instruction does not give (statement.StrictTest)
	ExtraGenerated          = "instruction_generated"  // the generated text a curator's edit replaced
	ExtraHints              = "instruction_hints"      // a task's own [instructions] hints
	ExtraCommitMessages     = "commit_list"            // a merge PR's branch commits as a list ("* subject"), read once (was commit_messages: joined by blank lines)
)

// StatementFlags are the statement's flags recorded on t.
func StatementFlags(t *Task) []string { return ExtraStrings(t, ExtraStatementFlags) }

// InstructionSource is where t's statement came from ("" before a build).
func InstructionSource(t *Task) string {
	s, _ := t.Extra[ExtraInstructionSource].(string)
	return s
}
