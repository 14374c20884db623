// Command gendocs writes curate's man pages, one per command, from the
// command tree into docs/man, the workbench's key reference from its key
// table into docs/keys.md, and the key tables between the markers of
// docs/workbench.md (all checked in; a test fails when they are not
// current):
//
//	go run ./internal/cmd/gendocs            # from the repository root
//	go run ./internal/cmd/gendocs -out DIR   # the man pages elsewhere
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"

	"curate/cli"
	"curate/ui/shared"
)

// manDate is the date in every page's header, fixed so that the pages
// change only when the commands do.
var manDate = time.Date(2026, time.November, 1, 0, 0, 0, 0, time.UTC)

func main() {
	out := flag.String("out", filepath.Join("docs", "man"), "folder for the man pages (replaced)")
	keys := flag.String("keys", filepath.Join("docs", "keys.md"), "file for the workbench's key reference")
	workbench := flag.String("workbench", filepath.Join("docs", "workbench.md"), "page whose marked key tables are rewritten")
	flag.Parse()
	err := Generate(*out)
	if err == nil {
		err = os.WriteFile(*keys, []byte(shared.KeysMarkdown()), 0o644)
	}
	if err == nil {
		err = RewriteKeyTables(*workbench)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gendocs:", err)
		os.Exit(1)
	}
}

// Generate writes the man pages into dir, removing pages of commands that
// are gone.
func Generate(dir string) error {
	old, err := filepath.Glob(filepath.Join(dir, "*.1"))
	if err != nil {
		return err
	}
	for _, f := range old {
		if err := os.Remove(f); err != nil {
			return fmt.Errorf("removing the old page: %w", err)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	root := cli.CommandTree()
	noAutoGenTag(root)
	header := &doc.GenManHeader{Title: "CURATE", Section: "1", Date: &manDate, Source: "curate", Manual: "curate manual"}
	if err := doc.GenManTree(root, header, dir); err != nil {
		return fmt.Errorf("writing man pages to %s: %w", dir, err)
	}
	return nil
}

// noAutoGenTag drops cobra's "Auto generated ... on DATE" line, which
// would change the pages every day.
func noAutoGenTag(c *cobra.Command) {
	c.DisableAutoGenTag = true
	for _, sub := range c.Commands() {
		noAutoGenTag(sub)
	}
}

// RewriteKeyTables writes the current key tables into page's marked
// blocks.
func RewriteKeyTables(page string) error {
	data, err := os.ReadFile(page)
	if err != nil {
		return err
	}
	fresh, err := shared.ReplaceKeyTables(page, string(data))
	if err != nil {
		return err
	}
	return os.WriteFile(page, []byte(fresh), 0o644)
}
