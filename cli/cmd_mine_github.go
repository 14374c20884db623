package cli

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"curate/app"
	"curate/pipeline/sanitize"
	"curate/pipeline/source"
	"curate/pipeline/source/github"
	"curate/pipeline/source/gitmine"
)

func newMineGitHubCmd(env *Env) *cobra.Command {
	var f mineFlags
	var apiURL string
	var maxWait time.Duration
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
			if err := gitmine.CheckRange(since, time.Time{}, time.Now()); err != nil {
				return err
			}
			if maxWait <= 0 {
				return fmt.Errorf("--max-wait %s: must be more than 0", maxWait)
			}
			if f.limit < 0 {
				return fmt.Errorf("--limit %d: must be 0 (all) or more", f.limit)
			}
			ws, err := env.Workspace(ctx)
			if err != nil {
				return err
			}
			res, err := app.MineGitHub(ctx, ws, app.GitHubMine{
				MineOptions: f.MineOptions, Repo: full, APIURL: apiURL, Since: since, Limit: f.limit, MaxWait: maxWait,
				Notify: func(msg string) { fmt.Fprintln(env.Err, "curate:", sanitize.Line(msg)) },
			})
			if err != nil {
				return err
			}
			if res.Skipped > 0 && !f.asJSON {
				fmt.Fprintf(env.Out, "%d PRs were mined by an earlier run (delete %s to start over)\n", res.Skipped, res.ProgressPath)
			}
			return reportMined(env, res.Tasks, f.asJSON, full+" ("+res.Preset+")")
		},
	}
	f.add(cmd)
	cmd.Flags().StringVar(&apiURL, "api-url", "", "GitHub API base URL (GitHub Enterprise, or a test server)")
	cmd.Flags().DurationVar(&maxWait, "max-wait", github.DefaultMaxWait, "longest wait for a rate limit or Retry-After; longer, the mine stops and the next run continues")
	return cmd
}
