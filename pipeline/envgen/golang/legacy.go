package golang

import (
	"encoding/json"
	"regexp"
	"sort"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// pin is one dependency a pre-modules tool fixed: an import path and the
// revision or tag it used.
type pin struct{ path, rev string }

// legacyFiles are the dependency files of Go's pre-modules tools, in the
// order they are tried (Go 1.22 dropped go mod init's conversion of them).
var legacyFiles = []string{"Gopkg.lock", "glide.lock", "vendor/vendor.json", "Godeps/Godeps.json"}

// revRe is what a pinned version may be: a commit hash or a tag.
var revRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._+-]{0,99}$`)

// semverRe is a full semantic version tag.
var semverRe = regexp.MustCompile(`^v\d+\.\d+\.\d+$`)

// pathRe is an import path the go command could fetch.
var pathRe = regexp.MustCompile(`^[a-z0-9.-]+\.[a-z]{2,}(/[A-Za-z0-9._~+-]+)+$`)

// legacyPins reads the first legacy dependency file the tree has; a
// file that does not parse gives no pins (the date then decides).
func legacyPins(name, text string) []pin {
	var out []pin
	add := func(path, rev string) {
		path, rev = strings.TrimSpace(path), strings.TrimSpace(rev)
		if pathRe.MatchString(path) && revRe.MatchString(rev) {
			out = append(out, pin{path, rev})
		}
	}
	switch name {
	case "Gopkg.lock": // dep
		var doc struct {
			Projects []struct{ Name, Revision, Version string } `toml:"projects"`
		}
		if toml.Unmarshal([]byte(text), &doc) == nil {
			for _, p := range doc.Projects {
				rev := p.Revision
				if semverRe.MatchString(p.Version) {
					rev = p.Version // "v1.0" is a dep constraint, not a version
				}
				add(p.Name, rev)
			}
		}
	case "glide.lock": // glide: "- name: path" then "  version: rev"
		current := ""
		for _, line := range strings.Split(text, "\n") {
			l := strings.TrimSpace(line)
			switch {
			case strings.HasPrefix(l, "- name:"):
				current = strings.TrimSpace(strings.TrimPrefix(l, "- name:"))
			case strings.HasPrefix(l, "version:") && current != "":
				add(current, strings.TrimPrefix(l, "version:"))
				current = ""
			}
		}
	case "vendor/vendor.json": // govendor
		var doc struct {
			Package []struct{ Path, Revision string } `json:"package"`
		}
		if json.Unmarshal([]byte(text), &doc) == nil {
			for _, p := range doc.Package {
				add(p.Path, p.Revision)
			}
		}
	case "Godeps/Godeps.json": // godep
		var doc struct {
			Deps []struct{ ImportPath, Rev string }
		}
		if json.Unmarshal([]byte(text), &doc) == nil {
			for _, d := range doc.Deps {
				add(d.ImportPath, d.Rev)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	// One pin per path (govendor lists each package of a repository).
	var dedup []pin
	for _, p := range out {
		if len(dedup) == 0 || dedup[len(dedup)-1].path != p.path {
			dedup = append(dedup, p)
		}
	}
	return dedup
}
