package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"curate/pipeline"
	"curate/pipeline/sanitize"
	"curate/pipeline/source"
	"curate/pipeline/source/github"
	"curate/pipeline/source/gitmine"
)

func newMineGitHubCmd(env *Env) *cobra.Command {
	var f mineFlags
	var apiURL string
	cmd := &cobra.Command{
		Use:   "github OWNER/REPO",
		Short: "Mine merged PRs through the GitHub API (resumable; waits out rate limits)",
		Long: `Lists closed pull requests (newest updated first), keeps the merged ones,
fetches their files and linked issues, and keeps a partial clone in
.curate/cache/github/ for building. The token comes from $GITHUB_TOKEN, else
` + "`gh auth token`" + `; without one the API allows 60 requests an hour. A second
run continues where the first stopped.`,
		Example: `  GITHUB_TOKEN=... curate mine github acme/widgets --limit 100
  curate mine github acme/widgets --since 2024-06-01 --preset swesmith
  curate mine github corp/tool --api-url https://ghe.example.com/api/v3`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			full := args[0]
			if !source.ValidRepo(full) {
				return fmt.Errorf("%q: want OWNER/REPO", full)
			}
			since, err := gitmine.ParseDate("--since", f.since)
			if err != nil {
				return err
			}
			if f.limit < 0 {
				return fmt.Errorf("--limit %d: must be 0 (all) or more", f.limit)
			}
			ws, err := env.Workspace(ctx)
			if err != nil {
				return err
			}
			fc, fopt, err := mineFilter(ws, f)
			if err != nil {
				return err
			}
			token, from := github.Token(ctx, os.Getenv)
			if token == "" {
				fmt.Fprintln(env.Err, "curate: warning: no GitHub token ($GITHUB_TOKEN or `gh auth login`): unauthenticated, 60 requests an hour")
			} else {
				fmt.Fprintf(env.Err, "curate: using the GitHub token from %s\n", from)
			}
			client, err := github.NewClient(apiURL, token)
			if err != nil {
				return err
			}
			m := &github.Miner{Client: client, Notify: func(msg string) { fmt.Fprintln(env.Err, "curate:", sanitize.Line(msg)) }}
			owner, name, _ := strings.Cut(full, "/")
			repo, err := m.Repository(ctx, owner, name)
			if err != nil {
				return err
			}
			key := owner + "__" + name
			clone := filepath.Join(ws.CachePath(), "github", key+".git")
			fmt.Fprintf(env.Err, "curate: fetching a partial clone into %s\n", clone)
			if err := github.Clone(ctx, repo.CloneURL, clone); err != nil {
				return err
			}
			progressPath := filepath.Join(ws.CachePath(), "github", key+".progress.json")
			done, err := github.LoadProgress(progressPath)
			if err != nil {
				return err
			}
			skipped := len(done)
			var tasks []*pipeline.Task
			err = m.Mine(ctx, github.Options{Owner: owner, Name: name, Since: since, Limit: f.limit, Done: done}, repo, func(pr *source.PR) error {
				if err := github.ResolveBases(ctx, clone, []*source.PR{pr}); err != nil {
					return err
				}
				if fopt.Preset == "swesmith" && fc.SWESmith.MaxFileLines > 0 && pr.BaseCommit != "" {
					if err := gitmine.MeasureLines(ctx, clone, []*source.PR{pr}); err != nil {
						return err
					}
				}
				saved, err := saveCandidates(ctx, ws, []*source.PR{pr}, fc, fopt, "github", clone)
				if err != nil {
					return err
				}
				tasks = append(tasks, saved...)
				done[pr.Number] = true
				return github.SaveProgress(progressPath, full, done)
			})
			if err != nil {
				if len(tasks) > 0 {
					fmt.Fprintf(env.Err, "curate: stopped after %d PRs; run the same command again to continue\n", len(tasks))
				}
				return err
			}
			if skipped > 0 && !f.asJSON {
				fmt.Fprintf(env.Out, "%d PRs were mined by an earlier run (delete %s to start over)\n", skipped, progressPath)
			}
			return reportMined(env, tasks, f.asJSON, full+" ("+fopt.Preset+")")
		},
	}
	f.add(cmd)
	cmd.Flags().StringVar(&apiURL, "api-url", "", "GitHub API base URL (GitHub Enterprise, or a test server)")
	return cmd
}
