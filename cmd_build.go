package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"curate/pipeline"
	"curate/pipeline/envgen"
	"curate/pipeline/patch"
	"curate/pipeline/sanitize"
)

func init() { register(newBuildCmd) }

// buildResult is one line of `curate build --json`.
type buildResult struct {
	ID       string   `json:"id"`
	Status   string   `json:"status"`
	TaskDir  string   `json:"task_dir,omitempty"`
	Digest   string   `json:"digest,omitempty"`
	Language string   `json:"language,omitempty"`
	Image    string   `json:"base_image,omitempty"`
	Reasons  []string `json:"reasons,omitempty"`
	Error    string   `json:"error,omitempty"`
}

func newBuildCmd(app *App) *cobra.Command {
	var accepted, asJSON bool
	var baseImage string
	var maxMB int
	cmd := &cobra.Command{
		Use:   "build [ID... | --accepted]",
		Short: "Turn mined candidates into Harbor task dirs in tasks/<owner>__<repo>-<pr>/",
		Example: `  curate build --accepted
  curate build acme__calc-1 acme__calc-2 --base-image curate/base:bookworm
  curate build --accepted --json | jq -r '.[] | select(.status=="built") | .task_dir'`,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if accepted == (len(args) > 0) {
				return fmt.Errorf("name candidate ids, or pass --accepted (every mined candidate that passed its filter and is not excluded)")
			}
			ws, err := app.Workspace(ctx)
			if err != nil {
				return err
			}
			fc, _, err := mineFilter(ws, mineFlags{preset: "none"})
			if err != nil {
				return err
			}
			var tasks []*pipeline.Task
			if accepted {
				all, err := ws.Store.Tasks(ctx)
				if err != nil {
					return err
				}
				for _, t := range all {
					if (t.Source == "git" || t.Source == "github") && (t.Status == pipeline.StatusCandidate || t.Status == pipeline.StatusBuilt) && !t.Labels.Excluded {
						full, err := ws.Store.Task(ctx, t.ID) // listings leave out the body
						if err != nil {
							return err
						}
						tasks = append(tasks, full)
					}
				}
				if len(tasks) == 0 {
					return fmt.Errorf("no accepted candidates: run `curate mine git PATH` first, or see `curate list --filter status=rejected` for why")
				}
			} else {
				for _, a := range args {
					id, err := ws.Store.ResolveID(ctx, a)
					if err != nil {
						return err
					}
					t, err := ws.Store.Task(ctx, id)
					if err != nil {
						return err
					}
					tasks = append(tasks, t)
				}
			}
			cfg := envgen.Config{BaseImage: baseImage, DockerBase: ws.Config.Docker.BaseImage, LanguageImages: ws.Config.Docker.LanguageImages, Repos: ws.Config.Repos, Filter: fc, MaxFileBytes: int64(maxMB) << 20, Network: envgen.HostNetwork(ctx, ws.Config.Docker.CABundle)}
			var results []buildResult
			failed := 0
			for _, t := range tasks {
				if err := ctx.Err(); err != nil {
					return err
				}
				res, err := envgen.Build(ctx, t, ws.TasksPath(), cfg)
				r := buildResult{ID: t.ID}
				switch reasons, rejected := patch.IsRejection(err); {
				case err == nil:
					t.Status, t.TaskDir, t.Digest, t.Reasons = pipeline.StatusBuilt, res.Dir, res.Digest, nil
					t.Language = res.Language
					r.Status, r.TaskDir, r.Digest, r.Language, r.Image = string(t.Status), res.Dir, res.Digest, res.Language, res.Image
				case rejected:
					t.Status, t.TaskDir, t.Digest = pipeline.StatusRejected, "", ""
					t.Reasons = append(withoutBuildReasons(t.Reasons), prefixAll("build: ", reasons)...)
					r.Status, r.Reasons = string(t.Status), t.Reasons
				default:
					failed++
					r.Status, r.Error = "error", err.Error()
					results = append(results, r)
					continue
				}
				if err := scoreWith(ws, t); err != nil { // the language may have changed
					return err
				}
				if err := ws.Store.UpsertTasks(ctx, []*pipeline.Task{t}); err != nil {
					return err
				}
				results = append(results, r)
			}
			if asJSON {
				if err := writeJSON(app.Out, results); err != nil {
					return err
				}
			} else {
				for _, r := range results {
					switch r.Status {
					case "built":
						fmt.Fprintf(app.Out, "built     %s  %s  (%s, FROM %s)\n", sanitize.Line(r.ID), sanitize.Line(r.TaskDir), r.Language, sanitize.Line(r.Image))
					case "rejected":
						fmt.Fprintf(app.Out, "rejected  %s\n", sanitize.Line(r.ID))
						for _, reason := range r.Reasons {
							fmt.Fprintf(app.Out, "            - %s\n", sanitize.Line(reason))
						}
					default:
						fmt.Fprintf(app.Out, "error     %s: %s\n", sanitize.Line(r.ID), sanitize.Line(r.Error))
					}
				}
			}
			if failed > 0 {
				return exitError{code: 1, msg: fmt.Sprintf("%d of %d builds failed", failed, len(tasks))}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&accepted, "accepted", false, "build (or rebuild) every mined candidate that passed its filter and is not excluded")
	cmd.Flags().StringVar(&baseImage, "base-image", "", "base image for the Dockerfiles (default: [docker] base_image in curate.toml, else "+envgen.DefaultBaseImage+")")
	cmd.Flags().IntVar(&maxMB, "max-file-mb", 10, "reject PRs that change a file larger than this")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one result object per task as a JSON array")
	return cmd
}

func prefixAll(p string, ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = p + s
	}
	return out
}

// withoutBuildReasons drops the reasons of an earlier build attempt.
func withoutBuildReasons(rs []string) []string {
	var out []string
	for _, r := range rs {
		if !strings.HasPrefix(r, "build: ") {
			out = append(out, r)
		}
	}
	return out
}
