package validate

import (
	"regexp"
	"strings"
)

// toolErrorRe matches the first error line a build or test tool prints
// itself, the evidence a curator can act on: cargo and rustc's "error:",
// go's first compile error and its "go:" failures, Maven's first [ERROR]
// naming a rule, a file or the goal, npm's ERR!, pip's and apt's error
// lines, a C/C++ or TypeScript compiler's first error, and an exception.
var toolErrorRe = regexp.MustCompile(`^(?:` +
	`error(?:\[E\d+\])?: ` +
	`|\S+\.go:\d+(?::\d+)?: ` +
	`|go: .*(?:requires go|cannot|not found|no matching|invalid|unknown revision|missing|error|inconsistent vendoring|verifying)` +
	`|\[ERROR\] (?:Rule \d+: |\S*\.(?:java|kt|groovy|xml):|Failed to execute goal|Could not |Non-resolvable)` +
	`|npm (?:ERR!|error) ` +
	`|ERROR: ` +
	`|E: ` +
	`|\S+:\d+:(?:\d+:)? (?:fatal )?error: ` +
	`|\S+\(\d+,\d+\): error TS\d+: |\S+:\d+:\d+ - error TS\d+: |error TS\d+: ` +
	`|E?\s*[\w.]*(?:Error|Exception): ` +
	`)`)

// isBuilderLine reports lines the image builder writes about a step (the
// step's command, quoted with its sed patterns), which are not output.
func isBuilderLine(l string) bool {
	return strings.HasPrefix(l, "Step ") || strings.HasPrefix(l, "The command '") ||
		strings.HasPrefix(l, `ERROR: process "/bin/sh -c`) || strings.HasPrefix(l, "curate: ")
}

// stepErrorLine is the tool's first error line in the output of the
// image build step that holds line i (from the builder's "Step N/M"
// line before it, or the start of the containers' output, up to i), ""
// when it has none.
func stepErrorLine(lines []string, i int) string {
	start := 0
	for j := min(i, len(lines)-1); j >= 0; j-- {
		if strings.HasPrefix(lines[j], "Step ") || isRunStart(lines[j]) {
			start = j + 1
			break
		}
	}
	for _, l := range lines[start:i] {
		t := strings.TrimSpace(l)
		if !isBuilderLine(t) && toolErrorRe.MatchString(t) {
			return clipEvidence(t)
		}
	}
	return ""
}

// lastStepErrorLine is the tool's first error line in the output of the
// last build step or of the tests (after the last "Step N/M" line), else
// the last line that is output (not curate's, not the builder's).
func lastStepErrorLine(log []byte, fallback string) string {
	lines := strings.Split(strings.TrimRight(string(log), "\n"), "\n")
	if l := stepErrorLine(lines, len(lines)); l != "" {
		return l
	}
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if l != "" && !isBuilderLine(l) {
			return clipEvidence(l)
		}
	}
	return fallback
}

func clipEvidence(l string) string {
	if len(l) > maxEvidence {
		return l[:maxEvidence] + "…"
	}
	return l
}

// BuildFailureLine is what a curator reads of an image build that failed
// outside a validation run (the environment check): "class: evidence"
// when a rule of the classifier explains the build's output, else the
// tool's first error line of the failing step, else fallback. Never the
// builder's quote of the step's command.
func BuildFailureLine(c *Classifier, lang, repo string, log []byte, fallback string) string {
	if c == nil {
		c = DefaultClassifier()
	}
	if f, ok := c.Match(lang, repo, log); ok {
		return string(f.Class) + ": " + f.Evidence
	}
	return lastStepErrorLine(log, fallback)
}
