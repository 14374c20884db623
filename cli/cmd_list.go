package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"curate/pipeline"
	"curate/pipeline/query"
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
			tasks, err := loadFiltered(cmd, env, filter)
			if err != nil {
				return err
			}
			if err := sortTasks(tasks, sortBy); err != nil {
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
	cmd.Flags().StringVarP(&filter, "filter", "f", "", "filter expression, e.g. 'language=go,rust score>0.7 -excluded=true' (see README)")
	cmd.Flags().StringVar(&sortBy, "sort", "id", "sort key: id, benchmark, repo, language, phase, difficulty, files, loc, score (prefix - for descending)")
	cmd.Flags().IntVar(&limit, "limit", 0, "show at most N tasks")
	return cmd
}

// loadFiltered loads all tasks and keeps those matching expr.
func loadFiltered(cmd *cobra.Command, env *Env, expr string) ([]*pipeline.Task, error) {
	q, err := query.Parse(expr)
	if err != nil {
		return nil, err
	}
	ws, err := env.Workspace(cmd.Context())
	if err != nil {
		return nil, err
	}
	all, err := ws.Store.Tasks(cmd.Context())
	if err != nil {
		return nil, err
	}
	if q.Empty() {
		return all, nil
	}
	out := all[:0]
	for _, t := range all {
		if q.Match(t) {
			out = append(out, t)
		}
	}
	return out, nil
}

func sortTasks(tasks []*pipeline.Task, key string) error {
	desc := strings.HasPrefix(key, "-")
	key = strings.TrimPrefix(key, "-")
	var less func(a, b *pipeline.Task) bool
	switch key {
	case "id", "":
		less = func(a, b *pipeline.Task) bool { return a.ID < b.ID }
	case "score":
		less = func(a, b *pipeline.Task) bool { return a.Score < b.Score }
	case "files":
		less = func(a, b *pipeline.Task) bool {
			return a.Features.Int(pipeline.FeatFilesChanged) < b.Features.Int(pipeline.FeatFilesChanged)
		}
	case "loc":
		less = func(a, b *pipeline.Task) bool {
			return a.Features.Int(pipeline.FeatLOCChanged) < b.Features.Int(pipeline.FeatLOCChanged)
		}
	case "difficulty":
		less = func(a, b *pipeline.Task) bool { return a.EffectiveDifficulty().Rank() < b.EffectiveDifficulty().Rank() }
	case "phase":
		less = func(a, b *pipeline.Task) bool { return pipeline.PhaseRank(a.Phase()) < pipeline.PhaseRank(b.Phase()) }
	case "benchmark", "repo", "language", "status", "category":
		less = func(a, b *pipeline.Task) bool { return query.FieldValue(a, key) < query.FieldValue(b, key) }
	default:
		return fmt.Errorf("unknown sort key %q (id, benchmark, repo, language, category, phase, difficulty, status, files, loc, score)", key)
	}
	sort.SliceStable(tasks, func(i, j int) bool {
		a, b := tasks[i], tasks[j]
		if desc {
			a, b = b, a
		}
		if less(a, b) {
			return true
		}
		if less(b, a) {
			return false
		}
		return tasks[i].ID < tasks[j].ID
	})
	return nil
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
			flags += "excluded"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%d\t%d\t%.4f\t%s\t%s\n", sanitize.Line(t.ID), sanitize.Line(t.Benchmark), sanitize.Line(t.Language),
			shortPhase(t.Phase()), diff, t.Features.Int(pipeline.FeatFilesChanged), t.Features.Int(pipeline.FeatLOCChanged), t.Score, t.Status, strings.TrimSpace(flags))
	}
	fmt.Fprintf(w, "%d tasks (* = curator's label)\n", len(tasks))
	if err := w.Flush(); err != nil {
		return err
	}
	return bw.Flush()
}

// shortPhase abbreviates a phase for narrow tables.
func shortPhase(p string) string {
	switch p {
	case "":
		return "-"
	case "Implementation (feature)":
		return "Impl/feature"
	case "Implementation (bug fix)":
		return "Impl/bugfix"
	case "Implementation (refactoring)":
		return "Impl/refactor"
	case "Requirements & Discovery":
		return "Requirements"
	case "Architecture & Design":
		return "Architecture"
	}
	return p
}
