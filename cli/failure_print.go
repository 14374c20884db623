package cli

import (
	"fmt"
	"io"

	"curate/pipeline"
	"curate/pipeline/sanitize"
)

// printFailure prints a failure's class, evidence and suggestion as
// aligned "key value" lines in format (a %-Ns %s line), nothing for none.
func printFailure(w io.Writer, format string, f *pipeline.Failure) {
	if f == nil {
		return
	}
	fmt.Fprintf(w, format, "class", sanitize.Line(f.Class))
	if f.Evidence != "" {
		fmt.Fprintf(w, format, "evidence", sanitize.Line(f.Evidence))
	}
	if f.Suggestion != "" {
		fmt.Fprintf(w, format, "suggestion", sanitize.Line(f.Suggestion))
	}
}
