// Package profiles holds the embedded rule profiles (TOML) and loads them
// with strict decoding. A profile is split into one file per stage under
// its folder (ccb/score.toml, ccb/filter.toml, ccb/selection.toml) so each
// stage owns its rules; the files are decoded together as one document.
package profiles

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"curate/internal/tomlerr"
	"curate/pipeline/filter"
	"curate/pipeline/score"
	"curate/pipeline/selection"
)

//go:embed */*.toml
var embedded embed.FS

// Profile is a full rule set. Rules are data: a new benchmark gets its own
// rules by editing TOML, not Go.
type Profile struct {
	Name        string           `toml:"name"`
	Description string           `toml:"description"`
	Score       score.Config     `toml:"score"`
	Filter      filter.Config    `toml:"filter"`
	Selection   selection.Config `toml:"selection"`
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
		name = "ccb"
	}
	text, err := EmbeddedText(name)
	if err != nil {
		return nil, err
	}
	var p Profile
	if err := decodeStrict("profile "+name+" (embedded)", []byte(text), &p); err != nil {
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
	return &p, nil
}

func decodeStrict(name string, data []byte, v any) error {
	dec := toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return tomlerr.Wrap(name, err)
	}
	return nil
}
