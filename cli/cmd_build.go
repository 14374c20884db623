package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"curate/app"
	"curate/pipeline"
	"curate/pipeline/envgen"
	"curate/pipeline/sanitize"
	"curate/workspace"
)

func newBuildCmd(env *Env) *cobra.Command {
	var accepted, asJSON, dryRun, allowEmpty bool
	var baseImage, at, filter string
	var maxMB int
	cmd := &cobra.Command{
		Use:   "build [ID... | --candidates | --filter EXPR]",
		Short: "Turn mined candidates into Harbor task dirs in tasks/<owner>__<repo>-<pr>/",
		Example: `  curate build --candidates --dry-run   # which tasks would be built; nothing is
  curate build --candidates
  curate build acme__calc-1 acme__calc-2 --base-image curate/base:bookworm
  curate build --filter 'repo=acme/calc'
  curate build --candidates --json | jq -r '.[] | select(.status=="built") | .task_dir'
  curate build --candidates --at snapshot      # mirror every PR onto one snapshot per repo
  curate build acme__calc-2 --at snapshot:v1.4 # ... onto a given revision`,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if accepted == (len(args) > 0 || filter != "") {
				return fmt.Errorf("name task ids or --filter EXPR, or pass --candidates (every mined task of status candidate: passed its filter, not excluded)")
			}
			ws, err := env.Workspace(ctx)
			if err != nil {
				return err
			}
			ids := args
			if filter != "" {
				if ids, err = filterIDs(ctx, ws, filter); err != nil {
					return err
				}
				if len(ids) == 0 {
					return emptyMatch(env, filter, "nothing to build", allowEmpty)
				}
			}
			opt := app.BuildOptions{Accepted: accepted, IDs: ids, BaseImage: baseImage, MaxFileBytes: int64(maxMB) << 20, At: at}
			if dryRun {
				tasks, err := app.BuildPlan(ctx, ws, opt)
				if err != nil {
					return err
				}
				return printPlan(env, asJSON, tasks, "would build", "would be built into tasks/")
			}
			results, err := app.Build(ctx, ws, opt)
			if err != nil {
				return err
			}
			failed := 0
			for _, r := range results {
				if r.Status == "error" {
					failed++
				}
			}
			if asJSON {
				if err := writeJSON(env.Out, results); err != nil {
					return err
				}
			} else {
				for _, r := range results {
					switch r.Status {
					case "built":
						fmt.Fprintf(env.Out, "built     %s  %s  (%s, FROM %s, %s)\n", sanitize.Line(r.ID), sanitize.Line(r.TaskDir), r.Language, sanitize.Line(r.Image), app.StrategyLine(r.Strategy, r.Snapshot, r.Method))
					case "rejected":
						fmt.Fprintf(env.Out, "rejected  %s\n", sanitize.Line(r.ID))
						for _, reason := range r.Reasons {
							fmt.Fprintf(env.Out, "            - %s\n", sanitize.Line(reason))
						}
					default:
						fmt.Fprintf(env.Out, "error     %s: %s\n", sanitize.Line(r.ID), sanitize.Line(r.Error))
					}
					if r.Note != "" {
						fmt.Fprintf(env.Out, "            %s\n", sanitize.Line(r.Note))
					}
				}
			}
			if failed > 0 {
				return exitError{code: 1, msg: fmt.Sprintf("%d of %d builds failed", failed, len(results))}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&accepted, "candidates", false, "build (or rebuild) every mined task of status candidate (passed its filter, not excluded)")
	cmd.Flags().BoolVar(&accepted, "accepted", false, "the old name of --candidates")
	_ = cmd.Flags().MarkHidden("accepted")
	cmd.Flags().StringVarP(&filter, "filter", "f", "", "build the tasks matching a filter expression")
	addAllowEmpty(cmd, &allowEmpty)
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "print which tasks would be built; build nothing")
	cmd.Flags().StringVar(&baseImage, "base-image", "", "base image for the Dockerfiles (default: [docker] base_image in curate.toml, else "+envgen.DefaultBaseImage+")")
	cmd.Flags().StringVar(&at, "at", "", "build strategy: merge (the PR's merge commit), snapshot[:REV] (mirror the PR onto one snapshot per repo) or auto (snapshot when the PR mirrors and the repo's env check passed); default: [repos] at, else auto")
	cmd.Flags().IntVar(&maxMB, "max-file-mb", 10, "reject PRs that change a file larger than this")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one result object per task as a JSON array")
	return cmd
}

// printPlan is a --dry-run's answer: each task that would be acted on,
// then the count; --json prints the ids ([] when none).
func printPlan(env *Env, asJSON bool, tasks []*pipeline.Task, each, summary string) error {
	ids := []string{}
	for _, t := range tasks {
		ids = append(ids, t.ID)
	}
	if asJSON {
		return writeJSON(env.Out, ids)
	}
	for _, t := range tasks {
		fmt.Fprintf(env.Out, "%s  %s  (%s)\n", each, sanitize.Line(t.ID), t.Status)
	}
	fmt.Fprintf(env.Out, "dry run: %d task(s) %s; nothing changed.\n", len(tasks), summary)
	return nil
}

// filterIDs are the ids of the tasks a filter expression matches (none
// for an empty one).
func filterIDs(ctx context.Context, ws *workspace.Workspace, filter string) ([]string, error) {
	if filter == "" {
		return nil, nil
	}
	tasks, err := app.FilterTasks(ctx, ws, filter)
	if err != nil {
		return nil, err
	}
	ids := []string{}
	for _, t := range tasks {
		ids = append(ids, t.ID)
	}
	return ids, nil
}
