package envgen

import (
	_ "embed"
	"fmt"
)

// nodeFetchPy is the curate-node helper (curate-node.py): node of one
// major version and a matching npm from the npm registry.
//
//go:embed curate-node.py
var nodeFetchPy string

// NodeStep adds the curate-node helper to the plan's tools and returns the
// step that installs node of one major version (and a matching npm) from
// the npm registry, unless the image has that major already. Why the
// major was picked stays in the plan's notes, not in the step: the same
// step in every repository that gets the same node lets a build cache
// reuse its layer across repositories.
func NodeStep(p *Plan, major int) string {
	npm := 10
	if major < 18 {
		npm = 9
	}
	p.Tool("curate-node", nodeFetchPy)
	return fmt.Sprintf("curate-node %d %d", major, npm)
}

// NodeMajors are the versions the planner picks from, in order of
// preference: current long-term support first.
var NodeMajors = []int{22, 20, 24, 18, 16, 14}

// NPMRegistry names the registry in evidence lines (expanded in the image).
const NPMRegistry = "the npm registry (${NPM_CONFIG_REGISTRY:-https://registry.npmjs.org/})"

// NPMMissing prints the package names npm could not find (sed -E).
const NPMMissing = `s/.*404 Not Found - GET .*\/-\/([^/ ]+)\.tgz.*/\1/p; s/.*No matching version found for ([^ ]+).*/\1/p`
