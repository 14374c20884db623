package export

import "io"

// Report writes the methodology report (Markdown) to w: the workbench's
// preview renders exactly what the report format writes.
func Report(w io.Writer, in *Input) error { return writeReport(w, in) }
