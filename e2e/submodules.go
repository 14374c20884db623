package e2e

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	gitcmd "curate/internal/git"
)

// githubURLRe is a submodule URL on GitHub: https://github.com/OWNER/NAME(.git).
var githubURLRe = regexp.MustCompile(`^https://github\.com/([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+?)(?:\.git)?/?$`)

// FillSubmodules does for a clone what `git clone --recurse-submodules`
// does for a researcher: each submodule whose GitHub repository has a
// folder in gitdirs (DIR/owner+name/repo, as CURATE_YIELD_GITDIRS) is
// initialised from it. Others stay empty, as in a clone without
// submodules. It returns the paths it filled.
func FillSubmodules(ctx context.Context, clone, gitdirs string) []string {
	out, err := gitcmd.Output(ctx, clone, "config", "-f", ".gitmodules", "--get-regexp", `^submodule\..*\.url$`)
	if err != nil {
		return nil // no .gitmodules
	}
	var filled []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		key, url, ok := strings.Cut(line, " ")
		m := githubURLRe.FindStringSubmatch(url)
		if !ok || m == nil {
			continue
		}
		mirror := filepath.Join(gitdirs, m[1]+"+"+m[2], "repo")
		if _, err := os.Stat(mirror); err != nil {
			continue
		}
		name := strings.TrimSuffix(strings.TrimPrefix(key, "submodule."), ".url")
		p, err := gitcmd.Output(ctx, clone, "config", "-f", ".gitmodules", "submodule."+name+".path")
		if err != nil {
			continue
		}
		path := strings.TrimSpace(string(p))
		if gitcmd.Run(ctx, clone, nil, "-c", "url."+mirror+".insteadOf="+url, "submodule", "update", "--init", "--", path) == nil {
			filled = append(filled, path)
		}
	}
	return filled
}
