// Package profiles holds the embedded rule profiles (TOML) and loads them
// with strict decoding. A profile is split into one file per stage under
// its folder (ccb/score.toml, ccb/selection.toml) so each stage owns its
// rules; the files are decoded together as one document. The candidate
// filter (filter.toml) is about mining, not about a benchmark's goals, so
// every profile shares it.
package profiles

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"curate/internal/tomlerr"
	"curate/pipeline/filter"
	"curate/pipeline/score"
	"curate/pipeline/selection"
)

//go:embed */*.toml filter.toml
var embedded embed.FS

// Default is the profile of a new workspace: neutral rules for a benchmark
// of one's own; "ccb" is the CodeContextBench preset.
const Default = "swe"

// sharedFilter is the filter file every profile includes.
const sharedFilter = "filter.toml"

// Profile is a full rule set. Rules are data: a new benchmark gets its own
// rules by editing TOML, not Go.
type Profile struct {
	Name        string `toml:"name"`
	Description string `toml:"description"`
	// Extends names the embedded profile this one builds on: its rule
	// lists go ahead of the base's (first match wins), its other keys
	// replace the base's.
	Extends string `toml:"extends"`
	// DatasetOrg "workspace" names Harbor datasets and tasks after the
	// workspace when no org is given; empty keeps the tasks' own org.
	DatasetOrg string `toml:"dataset_org"`
	// ScoreKey names the score in exported task metadata ("score");
	// empty keeps the CodeContextBench name, mcp_benefit_score.
	ScoreKey  string           `toml:"score_key"`
	Score     score.Config     `toml:"score"`
	Filter    filter.Config    `toml:"filter"`
	Selection selection.Config `toml:"selection"`
}

// Names lists the embedded profiles.
func Names() []string {
	entries, _ := fs.ReadDir(embedded, ".")
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out
}

// EmbeddedText returns the embedded profile's TOML files concatenated, as
// `curate profile show` prints them.
func EmbeddedText(name string) (string, error) {
	files, err := fs.Glob(embedded, name+"/*.toml")
	if err != nil || len(files) == 0 {
		return "", fmt.Errorf("no embedded profile %q (have: %s)", name, strings.Join(Names(), ", "))
	}
	files = append(files, sharedFilter)
	// profile.toml holds top-level keys, so it goes first: after another
	// file's [table] they would land inside that table.
	sort.Slice(files, func(i, j int) bool {
		pi, pj := path.Base(files[i]) == "profile.toml", path.Base(files[j]) == "profile.toml"
		if pi != pj {
			return pi
		}
		return files[i] < files[j]
	})
	var b strings.Builder
	for _, f := range files {
		data, err := embedded.ReadFile(f)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "# ---- %s ----\n", path.Base(f))
		b.Write(data)
		if !bytes.HasSuffix(data, []byte("\n")) {
			b.WriteByte('\n')
		}
	}
	return b.String(), nil
}

// Load returns the embedded profile name, then applies the override file
// (if any) on top: keys present in the file replace the embedded ones.
func Load(name, overrideFile string) (*Profile, error) {
	if name == "" {
		name = "ccb" // a curate.toml written before profiles had a default
	}
	text, err := EmbeddedText(name)
	if err != nil {
		return nil, err
	}
	p, err := loadEmbedded(name, text, 0)
	if err != nil {
		return nil, err
	}
	if overrideFile != "" {
		data, err := os.ReadFile(overrideFile)
		if err != nil {
			return nil, fmt.Errorf("read profile: %w", err)
		}
		if err := decodeStrict(overrideFile, data, &p); err != nil {
			return nil, err
		}
	}
	if p.Name == "" {
		p.Name = name
	}
	if p.DatasetOrg != "" && p.DatasetOrg != "workspace" {
		return nil, fmt.Errorf("profile %s: dataset_org %q: want \"workspace\" or nothing", p.Name, p.DatasetOrg)
	}
	return p, nil
}

// loadEmbedded decodes an embedded profile, on top of its base when it
// extends one.
func loadEmbedded(name, text string, depth int) (*Profile, error) {
	where := "profile " + name + " (embedded)"
	var own Profile
	if err := decodeStrict(where, []byte(text), &own); err != nil {
		return nil, err
	}
	if own.Extends == "" {
		return &own, nil
	}
	if depth > 4 {
		return nil, fmt.Errorf("%s: extends %q: too many levels", where, own.Extends)
	}
	baseText, err := EmbeddedText(own.Extends)
	if err != nil {
		return nil, fmt.Errorf("%s: extends: %w", where, err)
	}
	p, err := loadEmbedded(own.Extends, baseText, depth+1)
	if err != nil {
		return nil, err
	}
	// Clone: decoding reuses a slice's backing array.
	base := p.Score
	base.Phase, base.Difficulty = slices.Clone(base.Phase), slices.Clone(base.Difficulty)
	base.ContextComplexity, base.CrossFileDeps = slices.Clone(base.ContextComplexity), slices.Clone(base.CrossFileDeps)
	base.SemanticSearchPotential = slices.Clone(base.SemanticSearchPotential)
	if err := decodeStrict(where, []byte(text), p); err != nil {
		return nil, err
	}
	p.Score.Phase = append(own.Score.Phase, base.Phase...)
	p.Score.ContextComplexity = append(own.Score.ContextComplexity, base.ContextComplexity...)
	p.Score.CrossFileDeps = append(own.Score.CrossFileDeps, base.CrossFileDeps...)
	p.Score.SemanticSearchPotential = append(own.Score.SemanticSearchPotential, base.SemanticSearchPotential...)
	p.Score.Difficulty = append(own.Score.Difficulty, base.Difficulty...)
	return p, nil
}

func decodeStrict(name string, data []byte, v any) error {
	dec := toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return tomlerr.Wrap(name, err)
	}
	return nil
}
