package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"curate/pipeline"
	"curate/pipeline/filter"
	"curate/pipeline/profiles"
	"curate/pipeline/sanitize"
	"curate/pipeline/source"
	"curate/pipeline/source/gitmine"
	"curate/workspace"
)

func init() { register(newMineCmd) }

// mineFlags are shared by `mine git` and `mine github`.
type mineFlags struct {
	since, until   string
	limit          int
	preset         string
	noRequireIssue bool
	asJSON         bool
}

func (f *mineFlags) add(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.since, "since", "", "only PRs merged on or after this date (2024-05-31 or RFC 3339)")
	cmd.Flags().IntVar(&f.limit, "limit", 0, "mine at most N PRs (newest first)")
	cmd.Flags().StringVar(&f.preset, "preset", "", "candidate filter: taskgen, swesmith or none (default: [filter] preset in curate.toml, else taskgen)")
	cmd.Flags().BoolVar(&f.noRequireIssue, "no-require-issue", false, "taskgen: accept PRs without a linked issue")
	cmd.Flags().BoolVar(&f.asJSON, "json", false, "print the mined candidates as a JSON array")
}

func newMineCmd(app *App) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "mine",
		Short: "Mine merged pull requests into candidate tasks (from a local clone or GitHub)",
		Example: `  curate mine git ~/src/widgets --since 2024-01-01 --preset taskgen
  curate mine github acme/widgets --limit 200 --preset swesmith`,
	}
	cmd.AddCommand(newMineGitCmd(app), newMineGitHubCmd(app))
	return cmd
}

func newMineGitCmd(app *App) *cobra.Command {
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
			if repo != "" && !source.ValidRepo(repo) {
				return fmt.Errorf("--repo %q: want OWNER/NAME", repo)
			}
			if f.limit < 0 {
				return fmt.Errorf("--limit %d: must be 0 (all) or more", f.limit)
			}
			if opt.Path, err = filepath.Abs(args[0]); err != nil {
				return err
			}
			ws, err := app.Workspace(ctx)
			if err != nil {
				return err
			}
			fc, fopt, err := mineFilter(ws, f)
			if err != nil {
				return err
			}
			res, err := gitmine.MineAll(ctx, opt)
			if err != nil {
				return err
			}
			prs := res.PRs
			if fopt.Preset == "swesmith" && fc.SWESmith.MaxFileLines > 0 {
				if err := gitmine.MeasureLines(ctx, opt.Path, prs); err != nil {
					return err
				}
			}
			tasks, err := saveCandidates(ctx, ws, prs, fc, fopt, "git", opt.Path)
			if err != nil {
				return err
			}
			what := fmt.Sprintf("%s (%s)", opt.Path, fopt.Preset)
			if len(res.Skipped) > 0 {
				what += fmt.Sprintf(", %d unreadable commits skipped", len(res.Skipped))
			}
			err = reportMined(app, tasks, f.asJSON, what)
			reportSkipped(app, res.Skipped, f.asJSON)
			return err
		},
	}
	f.add(cmd)
	cmd.Flags().StringVar(&f.until, "until", "", "only PRs merged on or before this date")
	cmd.Flags().StringVar(&branch, "branch", "", "branch to walk (default: the checked-out HEAD)")
	cmd.Flags().StringVar(&repo, "repo", "", "OWNER/NAME for task ids (default: from the origin remote)")
	return cmd
}

// mineFilter loads the profile's [filter] and resolves the preset and the
// linked-issue rule: flags, then curate.toml [filter], then the profile.
func mineFilter(ws *workspace.Workspace, f mineFlags) (*filter.Config, filter.Options, error) {
	file := ws.Config.Profile.File
	if file != "" && !filepath.IsAbs(file) {
		file = filepath.Join(ws.Root, file)
	}
	p, err := profiles.Load(ws.Config.Profile.Name, file)
	if err != nil {
		return nil, filter.Options{}, err
	}
	if err := p.Filter.Validate(); err != nil {
		return nil, filter.Options{}, fmt.Errorf("profile %s: %w", p.Name, err)
	}
	opt := filter.Options{Preset: f.preset, RequireIssue: ws.Config.Filter.RequireIssue}
	if opt.Preset == "" {
		opt.Preset = ws.Config.Filter.Preset
	}
	if opt.Preset == "" {
		opt.Preset = "taskgen"
	}
	switch opt.Preset {
	case "taskgen", "swesmith", "none":
	default:
		return nil, opt, fmt.Errorf("--preset %q: want taskgen, swesmith or none", opt.Preset)
	}
	if f.noRequireIssue {
		no := false
		opt.RequireIssue = &no
	}
	return &p.Filter, opt, nil
}

// saveCandidates filters prs and upserts them. A task already built (or
// validated) from the same commits keeps its status, dir and digest: a
// re-mine never throws away a build.
func saveCandidates(ctx context.Context, ws *workspace.Workspace, prs []*source.PR, fc *filter.Config, fopt filter.Options, kind, path string) ([]*pipeline.Task, error) {
	existing, err := ws.Store.Tasks(ctx)
	if err != nil {
		return nil, err
	}
	byID := map[string]*pipeline.Task{}
	for _, t := range existing {
		byID[t.ID] = t
	}
	tasks := make([]*pipeline.Task, 0, len(prs))
	for _, pr := range prs {
		reasons, err := fc.Evaluate(pr, fopt)
		if err != nil {
			return nil, err
		}
		t := pr.Task(kind, path, reasons)
		t.Extra["preset"] = fopt.Preset
		if old := byID[t.ID]; old != nil && old.HeadCommit == t.HeadCommit && old.TaskDir != "" {
			switch old.Status {
			case pipeline.StatusBuilt, pipeline.StatusValid, pipeline.StatusInvalid:
				t.Status, t.TaskDir, t.Digest = old.Status, old.TaskDir, old.Digest
			}
		}
		tasks = append(tasks, t)
	}
	if err := scoreWith(ws, tasks...); err != nil {
		return nil, err
	}
	if err := ws.Store.UpsertTasks(ctx, tasks); err != nil {
		return nil, err
	}
	return tasks, nil
}

func reportMined(app *App, tasks []*pipeline.Task, asJSON bool, what string) error {
	if asJSON {
		return writeTaskArray(app, tasks)
	}
	ok := 0
	for _, t := range tasks {
		if t.Status != pipeline.StatusRejected {
			ok++
		}
	}
	fmt.Fprintf(app.Out, "Mined %d merged PRs from %s: %d candidates, %d rejected\n", len(tasks), sanitize.Line(what), ok, len(tasks)-ok)
	writeMinedTable(app.Out, tasks)
	if ok > 0 {
		fmt.Fprintln(app.Out, "Next: curate build --accepted   (or curate build ID...)")
	}
	return nil
}

// reportSkipped names every commit mining could not read, on stderr with
// --json so stdout stays one JSON array.
func reportSkipped(app *App, skipped []gitmine.Skipped, asJSON bool) {
	if len(skipped) == 0 {
		return
	}
	w := app.Out
	if asJSON {
		w = app.Err
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
