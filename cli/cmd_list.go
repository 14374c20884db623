package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"curate/app"
	"curate/pipeline"
	"curate/pipeline/sanitize"
)

func newListCmd(env *Env) *cobra.Command {
	var asJSON bool
	var filter, sortBy string
	var limit int
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List tasks, optionally filtered",
		Example: `  curate list
  curate list --filter 'benchmark=ccb_swebenchpro language=go score>0.6' --sort -score
  curate list --json | jq '.[] | select(.pinned)'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ws, err := env.Workspace(cmd.Context())
			if err != nil {
				return err
			}
			tasks, err := app.FilterTasks(cmd.Context(), ws, filter)
			if err != nil {
				return err
			}
			if err := app.SortTasks(tasks, sortBy); err != nil {
				return err
			}
			if limit > 0 && len(tasks) > limit {
				tasks = tasks[:limit]
			}
			if asJSON {
				return writeTaskArray(env, tasks)
			}
			return writeTaskTable(env, tasks)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array, one task object per line")
	cmd.Flags().StringVarP(&filter, "filter", "f", "", "filter expression, e.g. 'language=go,rust score>0.7 -excluded=true' (curate help filters)")
	cmd.Flags().StringVar(&sortBy, "sort", "id", "sort key: id, benchmark, repo, language, phase, difficulty, files, loc, score (prefix - for descending)")
	cmd.Flags().IntVar(&limit, "limit", 0, "show at most N tasks")
	return cmd
}

// writeTaskArray prints a JSON array with one compact task object a line:
// valid JSON for jq, and greppable. Objects are encoded in parallel chunks
// and written in order.
func writeTaskArray(env *Env, tasks []*pipeline.Task) error {
	const chunk = 2048
	chunks := make([][]byte, (len(tasks)+chunk-1)/chunk)
	errs := make([]error, len(chunks))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for c := range chunks {
		wg.Add(1)
		sem <- struct{}{}
		go func(c int) {
			defer func() { <-sem; wg.Done() }()
			var buf bytes.Buffer
			end := min((c+1)*chunk, len(tasks))
			for i := c * chunk; i < end; i++ {
				if i > 0 {
					buf.WriteByte(',')
				}
				buf.WriteByte('\n')
				b, err := json.Marshal(toTaskJSON(tasks[i]))
				if err != nil {
					errs[c] = err
					return
				}
				buf.Write(b)
			}
			chunks[c] = buf.Bytes()
		}(c)
	}
	wg.Wait()
	w := bufio.NewWriterSize(env.Out, 1<<16)
	w.WriteString("[")
	for c, b := range chunks {
		if errs[c] != nil {
			return errs[c]
		}
		w.Write(b)
	}
	w.WriteString("\n]\n")
	return w.Flush()
}

func writeTaskTable(env *Env, tasks []*pipeline.Task) error {
	bw := bufio.NewWriter(env.Out)
	w := tabwriter.NewWriter(bw, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tBENCHMARK\tLANG\tPHASE\tDIFFICULTY\tFILES\tLOC\tSCORE\tSTATUS\tFLAGS")
	for _, t := range tasks {
		diff := string(t.EffectiveDifficulty())
		if t.Labels.Difficulty != "" {
			diff += "*"
		}
		flags := ""
		if t.Labels.Pinned {
			flags += "pinned "
		}
		if t.Labels.Excluded {
			flags += "excluded "
		}
		if app.BuildStrategy(t) == pipeline.AtSnapshot {
			flags += "snapshot"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%d\t%d\t%.4f\t%s\t%s\n", sanitize.Line(t.ID), sanitize.Line(t.Benchmark), sanitize.Line(t.Language),
			pipeline.ShortPhase(t.Phase()), diff, t.Features.Int(pipeline.FeatFilesChanged), t.Features.Int(pipeline.FeatLOCChanged), t.Score, t.Status, strings.TrimSpace(flags))
	}
	fmt.Fprintf(w, "%d tasks (* = curator's label)\n", len(tasks))
	if err := w.Flush(); err != nil {
		return err
	}
	return bw.Flush()
}
