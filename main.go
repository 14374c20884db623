// Command curate is a terminal workbench for building and curating
// software-engineering benchmarks. The command line lives in cli/, the
// operations both faces share in app/.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"curate/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
