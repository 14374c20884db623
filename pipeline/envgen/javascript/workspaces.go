package javascript

import (
	"curate/pipeline/envgen"
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"
)

// A JS workspace (npm/yarn "workspaces", pnpm-workspace.yaml) installs
// every member at once, so one member the PR's tests never load (a docs
// site with a native dependency, an example pinned to an unpublished
// version) can stop the whole build. The members the tests need are the
// ones holding the test files and the workspace members those depend on;
// when the full install fails, only those are installed (npm: the
// workspaces list cut to them for the install, since npm --workspace still
// resolves every member; pnpm --filter NAME...; yarn workspaces focus), and the tests run from
// their member's folder with its own runner when the root names none.

// member is one workspace package.
type member struct {
	Dir, Name string
	Pkg       packageJSON
}

// workspaceGlobs are the member patterns the project declares.
func workspaceGlobs(tree *envgen.Tree, pkg packageJSON) []string {
	var globs []string
	switch w := pkg.Workspaces.(type) {
	case []any:
		for _, g := range w {
			if s, ok := g.(string); ok {
				globs = append(globs, s)
			}
		}
	case map[string]any:
		if list, ok := w["packages"].([]any); ok {
			for _, g := range list {
				if s, ok := g.(string); ok {
					globs = append(globs, s)
				}
			}
		}
	}
	in := false
	for _, line := range strings.Split(tree.Text("pnpm-workspace.yaml"), "\n") {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "packages:"):
			in = true
		case in && strings.HasPrefix(t, "- "):
			globs = append(globs, strings.Trim(strings.TrimSpace(t[2:]), `"'`))
		case in && t != "" && !strings.HasPrefix(t, "#"):
			in = false
		}
	}
	return globs
}

// workspaceMembers lists the members: folders matching a glob that hold a
// package.json ("!" patterns exclude).
func workspaceMembers(tree *envgen.Tree, pkg packageJSON) []member {
	globs := workspaceGlobs(tree, pkg)
	if len(globs) == 0 {
		return nil
	}
	match := func(g, dir string) bool {
		g = strings.TrimSuffix(strings.TrimPrefix(g, "./"), "/")
		if strings.HasSuffix(g, "/**") {
			return strings.HasPrefix(dir, strings.TrimSuffix(g, "**"))
		}
		ok, _ := path.Match(g, dir)
		return ok
	}
	var out []member
	for _, f := range tree.Files {
		if path.Base(f) != "package.json" || f == "package.json" || strings.Contains(f, "node_modules/") {
			continue
		}
		dir := path.Dir(f)
		in := false
		for _, g := range globs {
			if strings.HasPrefix(g, "!") {
				if match(g[1:], dir) {
					in = false
				}
			} else if match(g, dir) {
				in = true
			}
		}
		if !in {
			continue
		}
		var mp packageJSON
		var named struct {
			Name string `json:"name"`
		}
		text := []byte(tree.Text(f))
		if json.Unmarshal(text, &mp) != nil || json.Unmarshal(text, &named) != nil || named.Name == "" {
			continue
		}
		out = append(out, member{Dir: dir, Name: named.Name, Pkg: mp})
	}
	return out
}

// memberOf is the member whose folder holds file, or nil.
func memberOf(members []member, file string) *member {
	var best *member
	for i := range members {
		m := &members[i]
		if strings.HasPrefix(file, m.Dir+"/") && (best == nil || len(m.Dir) > len(best.Dir)) {
			best = m
		}
	}
	return best
}

// neededMembers are the members holding the files and, transitively, the
// members they depend on (by package name, any version or workspace:).
func neededMembers(members []member, files []string) []member {
	byName := map[string]*member{}
	for i := range members {
		byName[members[i].Name] = &members[i]
	}
	need := map[string]bool{}
	var queue []*member
	for _, f := range files {
		if m := memberOf(members, f); m != nil && !need[m.Name] {
			need[m.Name] = true
			queue = append(queue, m)
		}
	}
	for len(queue) > 0 {
		m := queue[0]
		queue = queue[1:]
		for _, deps := range []map[string]string{m.Pkg.Dependencies, m.Pkg.DevDependencies} {
			for name := range deps {
				if d, ok := byName[name]; ok && !need[name] {
					need[name] = true
					queue = append(queue, d)
				}
			}
		}
	}
	var out []member
	for _, m := range members {
		if need[m.Name] {
			out = append(out, m)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// focusedInstall is the install of only the needed members with the
// workspace's package manager ("" when it has no such mode: yarn 1).
func focusedInstall(tree *envgen.Tree, needed []member) string {
	var args []string
	switch {
	case tree.Has("pnpm-lock.yaml") || tree.Has("pnpm-workspace.yaml"):
		for _, m := range needed {
			args = append(args, "--filter "+envgen.ShellQuote(m.Name+"..."))
		}
		return "pnpm install " + strings.Join(args, " ")
	case tree.Has("yarn.lock") && tree.Has(".yarnrc.yml"):
		for _, m := range needed {
			args = append(args, envgen.ShellQuote(m.Name))
		}
		return "yarn workspaces focus " + strings.Join(args, " ")
	case tree.Has("yarn.lock"):
		return ""
	}
	for _, m := range needed {
		args = append(args, envgen.ShellQuote(m.Dir))
	}
	return "curate-npm-focus " + strings.Join(args, " ")
}

// workspaceFallback turns an install command into one that, when it fails,
// installs only the members the tests need, saying so; install unchanged
// when the tests need every member or none is known.
func workspaceFallback(tree *envgen.Tree, pkg packageJSON, tests []string, install string, p *envgen.Plan) string {
	members := workspaceMembers(tree, pkg)
	needed := neededMembers(members, tests)
	if len(members) == 0 || len(needed) == 0 || len(needed) == len(members) {
		return install
	}
	focused := focusedInstall(tree, needed)
	if focused == "" {
		return install
	}
	if strings.HasPrefix(focused, "curate-npm-focus ") {
		p.Tool("curate-npm-focus", npmFocusJS)
	}
	names := make([]string, len(needed))
	for i, m := range needed {
		names[i] = m.Name
	}
	note := fmt.Sprintf("curate: note: the workspace install failed; installing only the members the tests need (%s)", strings.Join(names, ", "))
	p.Note("workspace of %d members: when the full install fails, only those the tests need (%s: the tested ones and their workspace dependencies): %s", len(members), strings.Join(names, ", "), focused)
	return "(" + install + ") || { echo " + envgen.ShellQuote(note) + "; " + focused + "; }"
}

// memberRunner runs the tests from their member's folder with the
// member's runner when the root's scripts name none (scripts.test
// "pnpm -r test", "turbo run test"): the files relative to the member.
func memberRunner(tree *envgen.Tree, pkg packageJSON, files []string) (envgen.Runner, string, bool) {
	members := workspaceMembers(tree, pkg)
	var home *member
	for _, f := range files {
		m := memberOf(members, f)
		if m == nil || (home != nil && m.Dir != home.Dir) {
			return envgen.Runner{}, "", false
		}
		home = m
	}
	if home == nil {
		return envgen.Runner{}, "", false
	}
	rel := make([]string, len(files))
	for i, f := range files {
		rel[i] = strings.TrimPrefix(f, home.Dir+"/")
	}
	run, why, err := jsRunner(home.Pkg, rel)
	if err != nil {
		return envgen.Runner{}, "", false
	}
	run.Command = "cd " + envgen.ShellQuote("/app/"+home.Dir) + "\n" + run.Command
	return run, fmt.Sprintf("the workspace member %s (%s): %s", home.Name, home.Dir, why), true
}
