// Package filter decides which mined candidates become tasks; every
// rejection keeps all its reasons.
package filter

import (
	"fmt"
	"path"
	"regexp"
	"strings"
)

// Config is the profile's [filter] section: file classification, and the
// bounds of the two presets (formats.md §3). Every number is a parameter.
type Config struct {
	// TestDirs are folder names whose files are tests ("tests", "spec");
	// an entry with a slash ("src/test") matches that folder sequence.
	TestDirs []string `toml:"test_dirs"`
	// TestPatterns are globs on the file's base name ("test_*.py").
	TestPatterns []string `toml:"test_patterns"`
	// ExtraTestPatterns are added by a profile override without repeating
	// the defaults.
	ExtraTestPatterns []string `toml:"extra_test_patterns"`
	// CIDirs and VendorDirs hold files that never count as source.
	CIDirs     []string `toml:"ci_dirs"`
	VendorDirs []string `toml:"vendor_dirs"`
	// DocExtensions and DocDirs mark documentation files.
	DocExtensions []string `toml:"doc_extensions"`
	DocDirs       []string `toml:"doc_dirs"`
	// SupportedExtensions are the languages a task can be built for.
	SupportedExtensions []string `toml:"supported_extensions"`

	TaskGen  TaskGenConfig  `toml:"taskgen"`
	SWESmith SWESmithConfig `toml:"swesmith"`
}

// TaskGenConfig bounds the taskgen preset.
type TaskGenConfig struct {
	RequireTests   bool `toml:"require_tests"`
	MinSourceFiles int  `toml:"min_source_files"`
	MaxSourceFiles int  `toml:"max_source_files"`
	RequireIssue   bool `toml:"require_issue"`
	// MinSourceLines rejects one-line changes (added + removed in source).
	MinSourceLines int `toml:"min_source_lines"`
	// Unsubstantial lists heuristics standing in for TaskGen's LLM check.
	Unsubstantial []Heuristic `toml:"unsubstantial"`
}

// Heuristic rejects a PR with Reason when its title matches Title, or when
// every changed file matches AllFiles (either may be empty).
type Heuristic struct {
	Reason   string `toml:"reason"`
	Title    string `toml:"title"`
	AllFiles string `toml:"all_files"`
}

// SWESmithConfig bounds the swesmith preset (PR mirroring).
type SWESmithConfig struct {
	RequireTests    bool `toml:"require_tests"`
	MaxSourceFiles  int  `toml:"max_source_files"`
	MaxChangedLines int  `toml:"max_changed_lines"`
	// MaxFileLines: no touched file may be longer (0 = no limit).
	MaxFileLines int  `toml:"max_file_lines"`
	NoBinaries   bool `toml:"no_binaries"`
	// RequireSupported wants at least one file with a supported extension.
	RequireSupported bool `toml:"require_supported"`
}

// Kind is what a changed file is, for counting and patch splitting.
type Kind string

// File kinds.
const (
	KindTest   Kind = "test"
	KindSource Kind = "source"
	KindDoc    Kind = "doc"
	KindCI     Kind = "ci"
	KindVendor Kind = "vendor"
)

// Presets names the presets Evaluate knows.
var Presets = []string{"taskgen", "swesmith", "none"}

// Validate checks the config's regular expressions and bounds, so a bad
// profile fails when loaded, not halfway through a mining run.
func (c *Config) Validate() error {
	for _, p := range append(append([]string{}, c.TestPatterns...), c.ExtraTestPatterns...) {
		if _, err := path.Match(p, "x"); err != nil {
			return fmt.Errorf("filter test pattern %q: %w", p, err)
		}
	}
	for i, h := range c.TaskGen.Unsubstantial {
		if h.Reason == "" {
			return fmt.Errorf("filter.taskgen.unsubstantial[%d]: reason is empty", i)
		}
		for _, re := range []string{h.Title, h.AllFiles} {
			if _, err := regexp.Compile(re); err != nil {
				return fmt.Errorf("filter.taskgen.unsubstantial[%d] (%s): %w", i, h.Reason, err)
			}
		}
	}
	if c.TaskGen.MinSourceFiles > c.TaskGen.MaxSourceFiles && c.TaskGen.MaxSourceFiles > 0 {
		return fmt.Errorf("filter.taskgen: min_source_files %d > max_source_files %d", c.TaskGen.MinSourceFiles, c.TaskGen.MaxSourceFiles)
	}
	return nil
}

// Classify says what kind of file p is. Tests win over everything else,
// then vendor and CI folders, then documentation.
func (c *Config) Classify(p string) Kind {
	p = strings.TrimPrefix(p, "./")
	dir, base := path.Split(p)
	dirs := "/" + dir
	for _, d := range c.TestDirs {
		if strings.Contains(dirs, "/"+strings.Trim(d, "/")+"/") {
			return KindTest
		}
	}
	for _, pats := range [][]string{c.TestPatterns, c.ExtraTestPatterns} {
		for _, pat := range pats {
			if ok, _ := path.Match(pat, base); ok {
				return KindTest
			}
		}
	}
	for _, d := range c.VendorDirs {
		if strings.Contains(dirs, "/"+strings.Trim(d, "/")+"/") {
			return KindVendor
		}
	}
	for _, d := range c.CIDirs {
		d = strings.Trim(d, "/")
		if strings.HasPrefix(p, d+"/") || p == d {
			return KindCI
		}
	}
	for _, d := range c.DocDirs {
		if strings.Contains(dirs, "/"+strings.Trim(d, "/")+"/") {
			return KindDoc
		}
	}
	ext := strings.ToLower(path.Ext(base))
	for _, e := range c.DocExtensions {
		if ext == strings.ToLower(e) || strings.EqualFold(base, e) {
			return KindDoc
		}
	}
	return KindSource
}

// Supported reports whether p has one of the supported extensions.
func (c *Config) Supported(p string) bool {
	ext := strings.ToLower(path.Ext(p))
	for _, e := range c.SupportedExtensions {
		if ext == strings.ToLower(e) {
			return true
		}
	}
	return false
}
