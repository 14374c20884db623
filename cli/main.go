package cli

import (
	"context"
	"io"

	"curate/internal/stopsig"
)

// Main runs curate as a process: the stop signals (interrupt, SIGTERM,
// SIGHUP) cancel the command, which stops its runs, records them and
// removes their containers before it exits.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := stopsig.Context(context.Background())
	defer stop()
	return Run(ctx, args, stdin, stdout, stderr)
}
