package cli

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"curate/app"
	"curate/pipeline/sanitize"
	"curate/pipeline/source/gitmine"
)

func newCampaignCmd(env *Env) *cobra.Command {
	var (
		from, since, until, preset string
		engine                     string
		limit, concurrency         int
		hosts                      []string
		noEnvCheck, asJSON         bool
	)
	cmd := &cobra.Command{
		Use:   "campaign CLONE... | --from FILE",
		Short: "Take local clones to a validated pool: mine, env check, build and validate each, resuming where the store says it stopped",
		Long: `Campaign runs the whole pipeline over several repositories: each clone
is mined (as curate mine git), its environment checked at its snapshot
(curate env check, unless one recorded there covers the mined PRs), its candidates built
(curate build), and then every built task of them is validated in one batch
(curate validate), so the engines' concurrency is one budget for all. Each
step does only what the store says is not done: a campaign stopped at any
point and started again builds and validates no task twice. One line per
repository and step; --json prints each as a JSON object.`,
		Example: `  curate campaign ../calc ../mathx --limit 20
  curate campaign --from repos.txt --since 2024-01-01 --json
  curate campaign --from repos.txt --engine kubernetes`,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			clones, err := app.CampaignClones(args, from)
			if err != nil {
				return err
			}
			opt := gitmine.Options{Limit: limit}
			if opt.Since, err = gitmine.ParseDate("--since", since); err != nil {
				return err
			}
			if opt.Until, err = gitmine.ParseDate("--until", until); err != nil {
				return err
			}
			if err := gitmine.CheckRange(opt.Since, opt.Until, time.Now()); err != nil {
				return err
			}
			if limit < 0 || concurrency < 0 {
				return fmt.Errorf("--limit and --concurrency must be 0 (all, or the default) or more")
			}
			ws, err := env.Workspace(ctx)
			if err != nil {
				return err
			}
			enc := json.NewEncoder(env.Out)
			o := app.CampaignOptions{Clones: clones, Mine: opt, Preset: preset, NoEnvCheck: noEnvCheck,
				Validate: app.ValidateOptions{Hosts: hosts, Engines: env.engines, Engine: engine, Concurrency: concurrency, Warn: env.Err},
				Event: func(e app.CampaignEvent) {
					if asJSON {
						enc.Encode(e)
						return
					}
					took := ""
					if d := time.Duration(e.Seconds * float64(time.Second)); d >= time.Second {
						took = fmt.Sprintf(" (%s)", d.Round(100*time.Millisecond))
					} else if d > 0 {
						took = fmt.Sprintf(" (%s)", d.Round(time.Millisecond))
					}
					fmt.Fprintf(env.Out, "%-28s %-10s %s%s\n", sanitize.Line(e.Repo), e.Step, app.CampaignEventLine(e), took)
				}}
			_, err = app.RunCampaign(ctx, ws, o)
			return err
		},
	}
	cmd.Flags().StringVar(&from, "from", "", "a file of clone paths, one per line (# comments)")
	cmd.Flags().StringVar(&since, "since", "", "only PRs merged on or after this date (YYYY-MM-DD)")
	cmd.Flags().StringVar(&until, "until", "", "only PRs merged on or before this date")
	cmd.Flags().IntVar(&limit, "limit", 0, "stop after N candidates per repository (0 = all)")
	cmd.Flags().StringVar(&preset, "preset", "", "candidate filter: taskgen, swesmith or none (default: [filter] preset)")
	cmd.Flags().BoolVar(&noEnvCheck, "no-env-check", false, "skip the environment checks (auto then builds each PR at its merge commit)")
	cmd.Flags().IntVar(&concurrency, "concurrency", 0, "containers at once on each engine (default: [docker] concurrency)")
	cmd.Flags().StringArrayVar(&hosts, "docker-host", nil, "Docker engine to use (repeat to spread runs over several)")
	cmd.Flags().StringVar(&engine, "engine", "docker", "where the environment checks and validation runs go: docker, or kubernetes (curate.toml [kubernetes])")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print each step as a JSON object, one per line")
	return cmd
}
