package cli

import (
	"sort"
	"strings"

	"curate/app"
	"curate/ui"
	"curate/workspace"
)

// checkConfig checks the curate.toml values that need other packages (the
// profile it names, the workbench's action names) when the workspace is
// opened, so every command refuses a bad value with file:line:col, not
// only the command that happens to use it.
func checkConfig(ws *workspace.Workspace) error {
	cfg := ws.Config
	if _, _, err := app.LoadScorer(ws, ""); err != nil {
		key := "profile.name"
		if cfg.Profile.File != "" {
			key = "profile.file"
		}
		return cfg.Errorf(key, "%v", err)
	}
	names := make([]string, 0, len(cfg.UI.Keys))
	for name := range cfg.UI.Keys {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if _, err := ui.NewKeyMap(map[string]string{name: cfg.UI.Keys[name]}); err != nil {
			msg := strings.TrimPrefix(err.Error(), "[ui.keys] "+name+": ") // the key is named once
			return cfg.Errorf("ui.keys."+name, "%s", msg)
		}
	}
	return nil
}
