package app

import (
	"path/filepath"
	"strings"

	"curate/pipeline/export"
	"curate/pipeline/profiles"
	"curate/workspace"
)

// ExportOrg is the Harbor org of an export with no --org: curate.toml's
// [export] org, else the workspace's name when the profile says so (swe:
// a benchmark of one's own is published under its own name, not the
// upstream repository's owner), else none (tasks keep their own org).
func ExportOrg(ws *workspace.Workspace, p *profiles.Profile) string {
	if ws.Config.Export.Org != "" || p.DatasetOrg != "workspace" {
		return ws.Config.Export.Org
	}
	name := ws.Config.Workspace.Name
	if name == "" {
		name = filepath.Base(ws.Root)
	}
	return orgFromName(name)
}

// orgFromName turns a folder name into a valid Harbor org: characters
// Harbor refuses become "-", a leading one is dropped.
func orgFromName(name string) string {
	org := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
			return r
		}
		return '-'
	}, name)
	org = strings.TrimLeft(org, "._-")
	if !export.ValidOrg(org) {
		return "curate"
	}
	return org
}
