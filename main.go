// Command curate is a terminal workbench for building and curating
// software-engineering benchmarks. The command line lives in cli/, the
// operations both faces share in app/.
package main

import (
	"os"

	"curate/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
