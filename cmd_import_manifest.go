package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"curate/pipeline/source/manifest"
)

func init() { importSubs = append(importSubs, newImportManifestCmd) }

func newImportManifestCmd(app *App) *cobra.Command {
	var opt importOptions
	cmd := &cobra.Command{
		Use:   "manifest FILE.json",
		Short: "Import a selection manifest (selected_benchmark_tasks.json): catalogue entries and the selection it records",
		Long: `Import a selection manifest. Listed tasks the workspace does not have yet
become catalogue entries (source "manifest"; the manifest's own phase, score
and breakdown are kept as manifest_* extras for comparison). Tasks already
imported from their directories are left as they are. The manifest's choice
is saved as a selection snapshot named after the file
("selected_benchmark_tasks"), with each task's rationale and rank.`,
		Example: `  curate import manifest ~/ccb/selected_benchmark_tasks.json
  curate import manifest old/selected_benchmark_tasks.json --strict --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			im, scorer, profile, err := newImporter(ctx, app, opt, "manifest")
			if err != nil {
				return err
			}
			path, err := filepath.Abs(args[0])
			if err != nil {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return fmt.Errorf("import manifest: %w", err)
			}
			m, bad, err := manifest.Parse(args[0], data)
			if err != nil {
				return err
			}
			var items []importItem
			var failures []importFailure
			for _, b := range bad {
				failures = append(failures, importFailure{fmt.Sprintf("%s:%d tasks[%d]", b.File, b.Line, b.Index), b.Err.Error()})
			}
			var known []string
			for _, e := range m.Tasks {
				if old, err := im.ws.Store.Task(ctx, e.TaskID); err == nil && old.Source != "manifest" {
					known = append(known, e.TaskID) // imported from its dir: keep it
					continue
				}
				items = append(items, importItem{task: e.Task(path)})
			}
			sum, err := im.run(ctx, scorer, profile, items, failures)
			if err != nil {
				return err
			}
			sum.Unchanged = append(sum.Unchanged, known...)
			if !sum.Written {
				return im.report(sum)
			}
			sel := m.Selection(path)
			if err := im.ws.Store.SaveSelection(ctx, sel); err != nil {
				return err
			}
			err = im.report(sum)
			if !opt.asJSON {
				fmt.Fprintf(app.Out, "selection %q saved: %d tasks (%d already in the catalogue from their task dirs)\n",
					sel.Name, len(sel.Tasks), len(known))
			}
			return err
		},
	}
	opt.register(cmd, false)
	return cmd
}
