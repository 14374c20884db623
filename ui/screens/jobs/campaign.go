package jobs

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"curate/app"
	"curate/pipeline/source/gitmine"
	"curate/ui/shared"
)

// campaignForm asks for the clones (paths, or one file listing them, as
// `curate campaign CLONE... | --from FILE`), the first merge date, the
// candidates per repository and the filter's preset (empty: the
// workspace's [filter] preset, as the CLI without --preset).
func campaignForm() *startForm {
	return newForm("campaign", []string{"Clones or a file of them", "Since (YYYY-MM-DD)", "Limit per repository", "Preset (taskgen, swesmith, none)"}, "", "", "0", "")
}

// startCampaign runs `curate campaign` (Services.Campaign) over the clones
// given: mine, env check, build and validate each, resuming what the store
// says is left.
func (s *Model) startCampaign(given, since, limitText, preset string) tea.Cmd {
	f := s.ctx.Services.Campaign
	if f == nil {
		return shared.StatusCmd("campaign: not available in this build", true)
	}
	switch preset = strings.TrimSpace(preset); preset {
	case "", "taskgen", "swesmith", "none":
	default:
		return shared.StatusCmd(fmt.Sprintf("campaign: preset %q: want taskgen, swesmith or none (empty: the workspace's)", preset), true)
	}
	fields := strings.Fields(given)
	if len(fields) == 0 {
		return shared.StatusCmd("campaign: type clone paths, or a file listing them", true)
	}
	for i := range fields {
		fields[i] = expandHome(fields[i])
	}
	var from string
	if st, err := os.Stat(fields[0]); len(fields) == 1 && err == nil && st.Mode().IsRegular() {
		from, fields = fields[0], nil
	}
	clones, err := app.CampaignClones(fields, from)
	if err != nil {
		return shared.StatusCmd("campaign: "+err.Error(), true)
	}
	opt := gitmine.Options{}
	if opt.Since, err = gitmine.ParseDate("since", since); err != nil {
		return shared.StatusCmd("campaign: "+err.Error(), true)
	}
	if opt.Limit, err = strconv.Atoi(limitText); limitText == "" {
		opt.Limit, err = 0, nil
	}
	if err != nil || opt.Limit < 0 {
		return shared.StatusCmd(fmt.Sprintf("campaign: limit %q: want 0 (all) or more", limitText), true)
	}
	what := clones[0]
	if len(clones) > 1 {
		what = fmt.Sprintf("%d repositories", len(clones))
	}
	return s.start("campaign", what, true, func(ctx context.Context, progress app.ProgressFunc) (string, error) {
		return f(ctx, clones, opt, preset, progress)
	})
}
