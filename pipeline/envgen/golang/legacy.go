package golang

import (
	"encoding/json"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"
)

// pin is one dependency a pre-modules tool fixed: an import path and the
// versions that name the revision it used, tried in order (a release tag,
// the commit's pseudo-version, the commit hash itself).
type pin struct {
	path     string
	versions []string
}

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
	add := func(path string, revs ...string) {
		path = strings.TrimSpace(path)
		var versions []string
		for _, r := range revs {
			if r = strings.TrimSpace(r); r != "" && revRe.MatchString(r) && !slices.Contains(versions, r) {
				versions = append(versions, r)
			}
		}
		if pathRe.MatchString(path) && len(versions) > 0 {
			out = append(out, pin{path, versions})
		}
	}
	switch name {
	case "Gopkg.lock": // dep
		var doc struct {
			Projects []struct{ Name, Revision, Version string } `toml:"projects"`
		}
		if toml.Unmarshal([]byte(text), &doc) == nil {
			for _, p := range doc.Projects {
				add(p.Name, releaseTag(p.Version), p.Revision)
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
			Package []struct{ Path, Revision, RevisionTime, Comment string } `json:"package"`
		}
		if json.Unmarshal([]byte(text), &doc) == nil {
			for _, p := range doc.Package {
				add(p.Path, releaseTag(p.Comment), pseudoVersion(p.Path, p.Revision, p.RevisionTime), p.Revision)
			}
		}
	case "Godeps/Godeps.json": // godep
		var doc struct {
			Deps []struct{ ImportPath, Rev, Comment string }
		}
		if json.Unmarshal([]byte(text), &doc) == nil {
			for _, d := range doc.Deps {
				add(d.ImportPath, releaseTag(d.Comment), d.Rev)
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

// releaseTag is a pin's tag when it names a release ("v1.0" and
// "release-branch.go1.7" are constraints or branches, not versions).
func releaseTag(tag string) string {
	if semverRe.MatchString(tag) {
		return tag
	}
	return ""
}

var (
	commitRe    = regexp.MustCompile(`^[0-9a-f]{40}$`)
	gopkgInRe   = regexp.MustCompile(`^gopkg\.in/(?:[^/]+/)?[^/]+\.v(\d+)(?:/|$)`)
	majorPathRe = regexp.MustCompile(`/v(\d+)(?:/|$)`)
)

// pseudoVersion is the Go pseudo-version of a commit whose commit time
// the legacy file records (govendor's revisionTime): a module proxy that
// cannot look a bare commit hash up (403 "not available" here) still
// serves the pseudo-version. "" when the hash or the time is missing.
func pseudoVersion(pkgPath, rev, at string) string {
	t, err := time.Parse(time.RFC3339, strings.TrimSpace(at))
	if err != nil || !commitRe.MatchString(rev) {
		return ""
	}
	major := "0"
	if m := gopkgInRe.FindStringSubmatch(pkgPath); m != nil {
		major = m[1]
	} else if m := majorPathRe.FindStringSubmatch(pkgPath); m != nil && m[1] != "0" && m[1] != "1" {
		major = m[1]
	}
	if major == "1" {
		major = "0" // gopkg.in's .v1 has v0 and v1 versions; v0.0.0 sorts below both
	}
	return "v" + major + ".0.0-" + t.UTC().Format("20060102150405") + "-" + rev[:12]
}
