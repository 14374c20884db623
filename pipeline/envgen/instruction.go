package envgen

import "curate/pipeline/statement"

// Instruction renders instruction.md from the best text the sources hold
// (linked issue, PR body, title; see package statement), with the changed
// files' paths and the PR's test names redacted. app rewrites it with the
// Interface section and hints once the task dir exists.
func Instruction(title, issueText, body string, hide []string) string {
	text, src := statement.Choose(statement.Sources{Title: title, IssueText: issueText, PRBody: body})
	return statement.Render(statement.Statement{Title: title, Text: text, Source: src}, hide)
}
