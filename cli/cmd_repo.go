package cli

import (
	"context"

	"curate/pipeline"
	"curate/workspace"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"curate/app"
	"curate/pipeline/sanitize"
)

func newRepoCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "repo",
		Short: "Repository profiles: how each repo's tasks are built, their images and yield; edit a repo's [repos] section",
		Example: `  curate repo list
  curate repo show acme/calc
  EDITOR=nano curate repo edit acme/calc`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(newRepoListCmd(env), newRepoShowCmd(env), newRepoEditCmd(env))
	return cmd
}

func newRepoListCmd(env *Env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:     "list",
		Short:   "One line per repository: language, tasks mined, built and valid, failures, profile",
		Example: "  curate repo list\n  curate repo list --json | jq -r '.[].repo'",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			ws, err := env.Workspace(ctx)
			if err != nil {
				return err
			}
			ps, err := app.RepoProfiles(ctx, ws, app.RepoOptions{})
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(env.Out, ps)
			}
			if len(ps) == 0 {
				fmt.Fprintln(env.Out, "No mined tasks yet: run `curate mine git PATH` first.")
				return nil
			}
			fmt.Fprintf(env.Out, "%-28s %-10s %5s %5s %5s %5s  %-11s %s\n", "REPO", "LANG", "MINED", "BUILT", "VALID", "FAIL", "PROFILE", "TOP FAILURE")
			for _, p := range ps {
				prof := "-"
				if p.Profile != nil {
					prof = "curate.toml"
				}
				top := "-"
				if len(p.Failures) > 0 {
					top = fmt.Sprintf("%s (%d)", p.Failures[0].Class, len(p.Failures[0].Tasks))
				}
				fmt.Fprintf(env.Out, "%-28s %-10s %5d %5d %5d %5d  %-11s %s\n", sanitize.Line(clipText(p.Repo, 28)), sanitize.Line(p.Language),
					p.Funnel.Mined, p.Funnel.Built, p.Funnel.Valid, p.Failing(), prof, sanitize.Line(top))
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the profiles as JSON")
	return cmd
}

func newRepoShowCmd(env *Env) *cobra.Command {
	var asJSON, noImages bool
	cmd := &cobra.Command{
		Use:   "show OWNER/NAME",
		Short: "A repository's profile: language, toolchain, install steps, test command, snapshot, images and their state, env check, yield and failures by class",
		Example: `  curate repo show acme/calc
  curate repo show acme/calc --json | jq .funnel`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			repo, ws, err := repoArg(cmd, env, args[0])
			if err != nil {
				return err
			}
			ps, err := app.RepoProfiles(ctx, ws, app.RepoOptions{Repo: repo, Images: !noImages})
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(env.Out, ps[0])
			}
			printRepo(env.Out, ps[0])
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the profile as JSON")
	cmd.Flags().BoolVar(&noImages, "no-images", false, "do not ask the Docker engine whether the images exist")
	return cmd
}

func printRepo(w io.Writer, p *app.RepoProfile) {
	line := func(k, v string) { fmt.Fprintf(w, "%-14s %s\n", k, sanitize.Line(v)) }
	fmt.Fprintln(w, sanitize.Line(p.Repo))
	fmt.Fprintln(w, strings.Repeat("=", len(sanitize.Line(p.Repo))))
	line("language", orDash(p.Language))
	prof := "none (curate repo edit " + p.Repo + " adds one)"
	if p.Profile != nil {
		prof = "curate.toml [repos.\"" + p.Repo + "\"]"
	}
	line("profile", prof)
	line("toolchain", orDash(strings.Join(p.Toolchain, "; ")))
	if len(p.Install) == 0 {
		line("install", "-")
	} else {
		line("install", "("+p.InstallSource+")")
	}
	for _, s := range p.Install {
		line("", "  "+s)
	}
	test := orDash(p.TestCommand)
	if p.TestCommand != "" {
		test += "  (" + p.TestSource + ")"
	}
	line("tests", test)
	line("snapshot", orDash(app.ShortRev(p.Snapshot)))
	for i, img := range p.RepoImages {
		k := ""
		if i == 0 {
			k = "repo image"
		}
		line(k, fmt.Sprintf("%s  %s  (%d task(s) stand on it)", img.Tag, img.State, img.Tasks))
	}
	if len(p.Images) == 0 {
		line("images", "none yet (no built task)")
	}
	for i, img := range p.Images {
		k := ""
		if i == 0 {
			k = "task images"
		}
		line(k, fmt.Sprintf("%s  %s  (%d task(s))", img.Tag, img.State, img.Tasks))
	}
	check := p.EnvCheck.String() // "not run" when nil
	if p.EnvCheck == nil {
		check += " (curate env check " + p.Repo + ")"
	} else {
		check = "at " + app.ShortRev(p.EnvCheck.Snapshot) + ": " + check
	}
	line("env check", sanitize.Line(check))
	fmt.Fprintln(w)
	fmt.Fprintln(w, "yield")
	printSteps(w, &p.Funnel)
	if p.Funnel.NotValidated > 0 {
		fmt.Fprintf(w, "  %-20s %5d\n", "not validated", p.Funnel.NotValidated)
	}
	if len(p.Failures) == 0 {
		return
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "failures by class")
	for _, g := range p.Failures {
		fmt.Fprintf(w, "  %-20s %3d  %s\n", sanitize.Line(g.Class), len(g.Tasks), sanitize.Line(clipText(strings.Join(g.Tasks, ", "), 60)))
		for i, e := range g.Evidence {
			if i == 3 {
				fmt.Fprintf(w, "      ... %d more\n", len(g.Evidence)-3)
				break
			}
			fmt.Fprintf(w, "      %s: %s\n", sanitize.Line(e.TaskID), sanitize.Line(clipText(e.Line, 100)))
		}
		for _, s := range g.Suggestions {
			fmt.Fprintf(w, "      suggest: %s\n", sanitize.Line(s))
		}
	}
	fmt.Fprintf(w, "\nfix: curate repo edit %s, then curate rebuild --repo %s and curate validate --repo %s --failed\n", p.Repo, p.Repo, p.Repo)
}

func newRepoEditCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "edit OWNER/NAME",
		Short: "Edit a repo's [repos.\"OWNER/NAME\"] section of curate.toml in $EDITOR; a bad edit is refused with file:line and curate.toml is left as it was",
		Long: `Edit writes the repo's section of curate.toml (or a new one listing what
the builds detected, commented out) to a temp file and opens $VISUAL or
$EDITOR on it. The edit is read back strictly: an unknown key, a wrong type
or a table other than this repo's is refused with the temp file's
line:column, curate.toml is not touched, and the edit is kept for another
try. Otherwise the section is replaced and every other byte of curate.toml
(comments included) stays as it was. Then rebuild with
curate rebuild --repo OWNER/NAME.`,
		Example: `  EDITOR=nano curate repo edit acme/calc
  EDITOR='code --wait' curate repo edit acme/calc`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			repo, ws, err := repoArg(cmd, env, args[0])
			if err != nil {
				return err
			}
			ed, err := app.StartProfileEdit(ctx, ws, repo)
			if err != nil {
				return err
			}
			if err := runEditor(env, ed.Command(), ed.Discard); err != nil {
				return fmt.Errorf("%w (curate.toml is unchanged)", err)
			}
			changed, err := ed.Apply()
			if err != nil {
				return err
			}
			if !changed {
				fmt.Fprintf(env.Out, "no change to [repos.%q]\n", repo)
				return nil
			}
			verb := "saved"
			if _, ok := ws.Config.Repos[repo]; !ok {
				verb = "removed"
			}
			fmt.Fprintf(env.Out, "%s [repos.%q] in %s\nnext: curate rebuild --repo %s, then curate validate --repo %s --failed\n", verb, repo, ws.ConfigPath(), repo, repo)
			return nil
		},
	}
	return cmd
}

func newRebuildCmd(env *Env) *cobra.Command {
	var repo, baseImage string
	var asJSON, dryRun bool
	cmd := &cobra.Command{
		Use:   "rebuild --repo OWNER/NAME",
		Short: "Rebuild a repo's tasks with its current profile and say which tasks' environment changed (their runs no longer count)",
		Long: `Rebuild builds every built (or build-refused) task of the repo again with
curate.toml as it is now, and compares each task's files before and after:
"environment" when its environment/ folder (so its image) changed, "task"
when other files changed, "none" otherwise. A changed task goes back to
built and its old runs no longer count; an unchanged task keeps its verdict.
Then rerun what failed or changed with
curate validate --repo OWNER/NAME --failed.
(build --candidates rebuilds too, but neither compares nor keeps verdicts.)`,
		Example: `  curate rebuild --repo acme/calc --dry-run   # which tasks would be rebuilt; nothing is
  curate rebuild --repo acme/calc
  curate rebuild --repo acme/calc --json | jq '.tasks[] | select(.change != "none")'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if repo == "" {
				return fmt.Errorf("name the repository: --repo OWNER/NAME")
			}
			r, err := app.RepoOf(repo)
			if err != nil {
				return err
			}
			ws, err := env.Workspace(ctx)
			if err != nil {
				return err
			}
			if dryRun {
				tasks, err := app.RebuildPlan(ctx, ws, r)
				if err != nil {
					return err
				}
				return printPlan(env, asJSON, tasks, "would rebuild", "of "+r+" would be rebuilt")
			}
			res, err := app.RebuildRepo(ctx, ws, r, app.BuildOptions{BaseImage: baseImage})
			if res == nil {
				return err
			}
			if asJSON {
				if jerr := writeJSON(env.Out, res); jerr != nil {
					return jerr
				}
			} else {
				printRebuild(env.Out, res)
			}
			if err != nil {
				return err
			}
			if res.Errors > 0 {
				return exitError{code: 1, msg: fmt.Sprintf("%d of %d tasks failed to build", res.Errors, len(res.Tasks))}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&repo, "repo", "", "the repository to rebuild (OWNER/NAME)")
	cmd.Flags().StringVar(&baseImage, "base-image", "", "base image for the Dockerfiles (default: the profile's, else [docker] base_image)")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "print which tasks would be rebuilt; rebuild nothing")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	return cmd
}

func printRebuild(w io.Writer, res *app.RebuildResult) {
	builds := map[string]app.BuildResult{}
	for _, b := range res.Builds {
		builds[b.ID] = b
	}
	for _, t := range res.Tasks {
		extra := ""
		if t.Invalidated > 0 {
			extra = fmt.Sprintf("  (%d run(s) no longer count)", t.Invalidated)
		}
		if t.Change == "environment" {
			extra = fmt.Sprintf("  env %s -> %s", short(orDash(strings.TrimPrefix(t.OldEnv, "sha256:"))), short(orDash(strings.TrimPrefix(t.NewEnv, "sha256:")))) + extra
		}
		b := builds[t.ID]
		if b.Error != "" {
			extra += ": " + b.Error
		}
		fmt.Fprintf(w, "%-12s %s%s\n", t.Change, sanitize.Line(t.ID), sanitize.Line(extra))
		for _, r := range b.Reasons {
			fmt.Fprintf(w, "               - %s\n", sanitize.Line(r))
		}
	}
	fmt.Fprintf(w, "%s: %d task(s) rebuilt, %d changed", res.Repo, res.Built, res.Changed)
	if res.Refused > 0 {
		fmt.Fprintf(w, ", %d refused", res.Refused)
	}
	if res.Errors > 0 {
		fmt.Fprintf(w, ", %d error(s)", res.Errors)
	}
	if res.Changed > 0 {
		fmt.Fprintf(w, "; next: %s", rebuildNext(res))
	}
	fmt.Fprintln(w)
}

// rebuildNext is the validation that follows a rebuild: --failed finds
// the tasks whose runs the rebuild set aside, but not tasks never
// validated, so without such runs the hint validates the whole repo.
func rebuildNext(res *app.RebuildResult) string {
	for _, t := range res.Tasks {
		if t.Invalidated > 0 {
			return "curate validate --repo " + res.Repo + " --failed"
		}
	}
	return "curate validate --repo " + res.Repo
}

// addRepoTasks adds the tasks `validate --repo R [--failed]` names to
// those the other arguments chose; it says why each rerun is one, and
// when none qualifies (the nil result ends the command).
func addRepoTasks(ctx context.Context, env *Env, ws *workspace.Workspace, tasks []*pipeline.Task, f validateFlags) ([]*pipeline.Task, error) {
	repo, err := app.RepoOf(f.repo)
	if err != nil {
		return nil, err
	}
	targets, err := app.RepoTasks(ctx, ws, repo, f.failed)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, t := range tasks {
		seen[t.ID] = true
	}
	for _, t := range targets {
		if f.failed {
			fmt.Fprintf(env.Err, "rerun %s (%s)\n", sanitize.Line(t.Task.ID), sanitize.Line(t.Why))
		}
		if !seen[t.Task.ID] {
			seen[t.Task.ID] = true
			tasks = append(tasks, t.Task)
		}
	}
	if len(tasks) == 0 {
		what := "built task"
		if f.failed {
			what = "task that failed or changed since its runs"
		}
		fmt.Fprintf(env.Out, "nothing to validate: %s has no %s\n", sanitize.Line(repo), what)
	}
	return tasks, nil
}

// repoArg checks an OWNER/NAME argument and opens the workspace.
func repoArg(cmd *cobra.Command, env *Env, arg string) (string, *workspace.Workspace, error) {
	repo, err := app.RepoOf(arg)
	if err != nil {
		return "", nil, err
	}
	ws, err := env.Workspace(cmd.Context())
	return repo, ws, err
}
