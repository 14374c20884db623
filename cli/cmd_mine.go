package cli

import (
	"time"

	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"curate/app"
	"curate/pipeline"
	"curate/pipeline/sanitize"
	"curate/pipeline/source"
	"curate/pipeline/source/gitmine"
)

// mineFlags are shared by `mine git` and `mine github`.
type mineFlags struct {
	app.MineOptions
	since, until string
	limit        int
	asJSON       bool
}

func (f *mineFlags) add(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.since, "since", "", "only PRs merged on or after this date (2024-05-31 or RFC 3339)")
	cmd.Flags().IntVar(&f.limit, "limit", 0, "stop after N candidates, newest first (the PRs rejected on the way are saved too)")
	cmd.Flags().StringVar(&f.Preset, "preset", "", "candidate filter: taskgen, swesmith or none (default: [filter] preset in curate.toml, else taskgen)")
	cmd.Flags().BoolVar(&f.NoRequireIssue, "no-require-issue", false, "taskgen: accept PRs without a linked issue")
	cmd.Flags().BoolVar(&f.asJSON, "json", false, "print the mined candidates as a JSON array")
}

func newMineCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "mine",
		Short: "Mine merged pull requests into candidate tasks (from a local clone or GitHub)",
		Example: `  curate mine git ~/src/widgets --since 2024-01-01 --preset taskgen
  curate mine github acme/widgets --limit 200 --preset swesmith`,
		// "curate mine ../widgets --preset none" is what a newcomer types:
		// say which subcommand they meant rather than "unknown flag".
		Args:               cobra.ArbitraryArgs,
		FParseErrWhitelist: cobra.FParseErrWhitelist{UnknownFlags: true},
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return cmd.Help()
			}
			local, err := app.MineSource(args[0])
			if err != nil {
				return fmt.Errorf("mine: say where from: `curate mine git PATH` (a local clone) or `curate mine github OWNER/REPO`: %w", err)
			}
			kind := "github"
			if local {
				kind = "git"
			}
			return fmt.Errorf("mine: say where from: did you mean `curate mine %s %s` (with the same flags)?", kind, args[0])
		},
	}
	cmd.AddCommand(newMineGitCmd(env), newMineGitHubCmd(env))
	return cmd
}

func newMineGitCmd(env *Env) *cobra.Command {
	var f mineFlags
	var branch, repo string
	cmd := &cobra.Command{
		Use:   "git PATH",
		Short: "Find merged PRs (merge and squash commits) in a local clone's first-parent history",
		Example: `  curate mine git ~/src/widgets
  curate mine git ../calc --branch main --since 2024-01-01 --until 2024-12-31 --limit 50
  curate mine git . --repo acme/widgets --preset swesmith --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			opt := gitmine.Options{Branch: branch, Limit: f.limit, Repo: repo}
			var err error
			if opt.Since, err = gitmine.ParseDate("--since", f.since); err != nil {
				return err
			}
			if opt.Until, err = gitmine.ParseDate("--until", f.until); err != nil {
				return err
			}
			if err := gitmine.CheckRange(opt.Since, opt.Until, time.Now()); err != nil {
				return err
			}
			if repo != "" && !source.ValidRepo(repo) {
				return fmt.Errorf("--repo %q: want OWNER/NAME", repo)
			}
			if f.limit < 0 {
				return fmt.Errorf("--limit %d: must be 0 (all) or more", f.limit)
			}
			if opt.Path, err = filepath.Abs(args[0]); err != nil {
				return err
			}
			ws, err := env.Workspace(ctx)
			if err != nil {
				return err
			}
			f.Notify = func(msg string) { fmt.Fprintln(env.Err, msg) }
			res, err := app.MineGit(ctx, ws, opt, f.MineOptions)
			if err != nil {
				return err
			}
			what := fmt.Sprintf("%s (%s)", opt.Path, res.Preset)
			if len(res.Skipped) > 0 {
				what += fmt.Sprintf(", %d unreadable commits skipped", len(res.Skipped))
			}
			err = reportMined(env, res.Tasks, f.asJSON, what)
			reportSkipped(env, res.Skipped, f.asJSON)
			reportPullRefs(env, res, f.asJSON)
			return err
		},
	}
	f.add(cmd)
	cmd.Flags().StringVar(&f.until, "until", "", "only PRs merged on or before this date")
	cmd.Flags().StringVar(&branch, "branch", "", "branch to walk (default: the checked-out HEAD)")
	cmd.Flags().StringVar(&repo, "repo", "", "OWNER/NAME for task ids (default: from the origin remote)")
	cmd.Flags().StringVar(&f.IssuesFrom, "issues", "", "github: fetch the linked issues' text through the GitHub API (cached; uses $GITHUB_TOKEN)")
	cmd.Flags().StringVar(&f.IssuesAPIURL, "api-url", "", "with --issues github: the API base URL (default https://api.github.com/)")
	return cmd
}

func reportMined(env *Env, tasks []*pipeline.Task, asJSON bool, what string) error {
	if asJSON {
		return writeTaskArray(env, tasks)
	}
	ok := 0
	for _, t := range tasks {
		if t.Status != pipeline.StatusRejected {
			ok++
		}
	}
	fmt.Fprintf(env.Out, "Mined %d merged PRs from %s: %d candidates, %d rejected\n", len(tasks), sanitize.Line(what), ok, len(tasks)-ok)
	writeMinedTable(env.Out, tasks)
	if ok > 0 {
		fmt.Fprintln(env.Out, "Next: curate build --candidates   (or curate build ID...)")
	}
	return nil
}

// reportPullRefs says what the clone's PR refs added, or how to get them:
// without them, PRs merged by rebase or squash with no "(#N)" in the
// subject are invisible to local history.
func reportPullRefs(env *Env, res *app.GitMined, asJSON bool) {
	if asJSON {
		return
	}
	if res.PullRefs == 0 {
		fmt.Fprintln(env.Err, "Note: the clone has no PR refs; PRs merged by rebase, or squashed without \"(#N)\" in the subject, are not found. To find them: git fetch origin '+refs/pull/*/head:refs/pull/*/head'")
		return
	}
	fmt.Fprintf(env.Err, "%d of the PRs were found through the clone's %d PR refs (refs/pull/N/head, matched to mainline commits by git patch-id)\n", res.FromPullRefs, res.PullRefs)
}

// reportSkipped names every commit mining could not read, on stderr with
// --json so stdout stays one JSON array.
func reportSkipped(env *Env, skipped []gitmine.Skipped, asJSON bool) {
	if len(skipped) == 0 {
		return
	}
	w := env.Out
	if asJSON {
		w = env.Err
	}
	fmt.Fprintf(w, "Skipped %d commits that could not be read (the rest was mined):\n", len(skipped))
	for _, s := range skipped {
		fmt.Fprintf(w, "  SKIPPED %s  %s\n", s.Commit, sanitize.Line(s.Reason))
	}
	fmt.Fprintln(w, "A blob-less (--filter=blob:none) clone needs its remote to read old diffs: mine it online, or clone it whole.")
}

func writeMinedTable(w io.Writer, tasks []*pipeline.Task) {
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTATUS\tSRC\tTEST\tISSUES\tTITLE / REASONS")
	for _, t := range tasks {
		issues := "-"
		if l, ok := t.Extra["linked_issues"].([]string); ok && len(l) > 0 {
			issues = strings.Join(l, ",")
		}
		title := sanitize.Line(t.Title)
		if len(title) > 60 {
			title = title[:57] + "..."
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%s\n", sanitize.Line(t.ID), t.Status, t.Features.Int(pipeline.FeatFilesChanged),
			t.Features.Int(pipeline.FeatTestFiles), sanitize.Line(issues), title)
		for _, r := range t.Reasons {
			fmt.Fprintf(tw, "\t\t\t\t\t  - %s\n", sanitize.Line(r))
		}
	}
	tw.Flush()
}
