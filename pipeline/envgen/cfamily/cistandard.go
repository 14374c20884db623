package cfamily

import (
	"strconv"
	"strings"

	"curate/pipeline/envgen"
	"curate/pipeline/envgen/ciconfig"
)

// ciStandards are the -DCMAKE_CXX_STANDARD and -DCMAKE_C_STANDARD the
// CI's cmake commands pass (from the job and matrix entry ciconfig
// chooses), for a project that leaves the standard to whoever configures
// it: some refuse to configure without one ("CMAKE_CXX_STANDARD is not
// defined"). A build file's own set() still wins over a -D, so a project
// that fixes its standard builds as before. Standards g++ 12 does not
// know are left out.
func ciStandards(p *envgen.Plan, tree *envgen.Tree) []string {
	known := map[string]map[int]bool{
		"CMAKE_CXX_STANDARD": {98: true, 11: true, 14: true, 17: true, 20: true, 23: true},
		"CMAKE_C_STANDARD":   {90: true, 99: true, 11: true, 17: true, 23: true},
	}
	var args []string
	seen := map[string]bool{}
	for _, d := range ciconfig.Read(tree).Defines {
		key, val, _ := strings.Cut(d.Value, "=")
		n, err := strconv.Atoi(val)
		if known[key] == nil || seen[key] || err != nil || !known[key][n] {
			continue
		}
		seen[key] = true
		args = append(args, "-D"+key+"="+val)
		p.Note("%s=%s, as the CI configures it (%s)", key, val, d.Source)
	}
	return args
}
