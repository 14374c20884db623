package javascript

import (
	"curate/pipeline"
	"curate/pipeline/envgen"
	_ "embed"
	"fmt"
	"regexp"
	"strings"
	"time"
)

var (
	// npmInstallSh is the curate-npm-install helper: npm ci or install,
	// retried without lifecycle scripts, then with the versions the
	// registry lacks relaxed (curate-npm-relax).
	//go:embed curate-npm-install.sh
	npmInstallSh string
	//go:embed curate-npm-relax.js
	npmRelaxJS string
	//go:embed curate-npm-focus.js
	npmFocusJS string
)

// npmTools adds the npm install helpers to the plan.
func npmTools(p *envgen.Plan) {
	p.Tool("curate-npm-install", strings.ReplaceAll(npmInstallSh, "@BUILD_NOTES@", pipeline.BuildNotesFile))
	p.Tool("curate-npm-relax", npmRelaxJS)
}

// planPackageManager installs the dependencies with the tool the
// lockfile belongs to; without a lockfile, npm install as of the
// revision's date (npm --before), so the dependencies are those the
// revision was written against, not today's majors.
func planPackageManager(tree *envgen.Tree, pkg packageJSON, tests []string, p *envgen.Plan) {
	pmVersion := func(name, fallback string) string {
		if n, v, ok := strings.Cut(pkg.PackageManager, "@"); ok && n == name {
			if v, _, _ = strings.Cut(v, "+"); v != "" {
				return v
			}
		}
		return fallback
	}
	var install, why string
	switch {
	case tree.Has("package-lock.json") || tree.Has("npm-shrinkwrap.json"):
		npmTools(p)
		install, why = "curate-npm-install ci", "package-lock.json: npm ci, else npm install reconciling it with package.json; a pinned version the registry lacks is relaxed to its newest, the rest of the lockfile kept"
	case tree.Has("pnpm-lock.yaml"):
		v := pmVersion("pnpm", pnpmForLockfile(tree.Text("pnpm-lock.yaml")))
		install = fmt.Sprintf("npm install -g --no-audit --no-fund pnpm@%s && (pnpm install --frozen-lockfile || pnpm install)", v)
		why = "pnpm-lock.yaml, pnpm " + v
	case tree.Has("yarn.lock"):
		if rel := yarnRelease(tree); rel != "" {
			q := envgen.ShellQuote(rel)
			install, why = fmt.Sprintf("node %s install --immutable || node %s install", q, q), "yarn.lock, the repository's "+rel
		} else if tree.Has(".yarnrc.yml") {
			v := pmVersion("yarn", "4")
			install = fmt.Sprintf("npm install -g --no-audit --no-fund @yarnpkg/cli-dist@%s && (yarn install --immutable || yarn install)", v)
			why = "yarn.lock with .yarnrc.yml: yarn " + v
		} else {
			install, why = "npm install -g --no-audit --no-fund yarn@1 && (yarn install --frozen-lockfile || yarn install)", "yarn.lock: yarn 1"
		}
	default:
		npmTools(p)
		install, why = "curate-npm-install install", "no lockfile: npm install with today's versions"
		if !tree.Date.IsZero() {
			date := tree.Date.UTC().Format(time.RFC3339)
			install = "curate-npm-install --before " + date + " install"
			why = "no lockfile: npm install --before " + date + " (the revision's commit date), today's versions when the registry has none that old"
		}
	}
	p.Note("dependencies: %s (%s)", install, why)
	install = workspaceFallback(tree, pkg, tests, install, p)
	run := install
	if strings.ContainsAny(install, "&|()") {
		run = "sh -c " + envgen.ShellQuote(install)
	}
	step := envgen.RegistryStep(envgen.NPMRegistry, envgen.NPMMissing, run)
	// From the manifests alone, in a layer tasks share while package.json
	// and the lockfile do not change; a workspace or a local (file:,
	// link:) dependency needs the whole tree.
	raw := tree.Text("package.json")
	if pkg.Workspaces != nil || strings.Contains(raw, `"file:`) || strings.Contains(raw, `"link:`) || strings.Contains(raw, `"workspace:`) || tree.Has("pnpm-workspace.yaml") {
		p.Install = append(p.Install, step)
		return
	}
	for _, f := range []string{"package.json", "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", ".npmrc", ".yarnrc", ".yarnrc.yml"} {
		if tree.Has(f) {
			p.Manifests = append(p.Manifests, f)
		}
	}
	if rel := yarnRelease(tree); rel != "" {
		p.Manifests = append(p.Manifests, rel)
	}
	p.DepSteps = append(p.DepSteps, step)
	p.Note("dependencies installed from package.json and the lockfile alone (a layer shared while they do not change)")
}

// pnpmForLockfile maps lockfileVersion to the pnpm that writes it.
func pnpmForLockfile(lock string) string {
	m := regexp.MustCompile(`(?m)^lockfileVersion:\s*'?(\d+)`).FindStringSubmatch(lock)
	if m == nil {
		return "9"
	}
	switch m[1] {
	case "5":
		return "7"
	case "6":
		return "8"
	}
	return "9"
}

// yarnRelease is the yarn the repository ships (.yarnrc.yml yarnPath).
func yarnRelease(tree *envgen.Tree) string {
	m := regexp.MustCompile(`(?m)^yarnPath:\s*["']?([^"'\s]+)`).FindStringSubmatch(tree.Text(".yarnrc.yml"))
	if m == nil || !tree.Has(m[1]) {
		return ""
	}
	return m[1]
}
