package workspace

import (
	"bytes"
	"fmt"
	"os"

	"github.com/pelletier/go-toml/v2"

	"curate/internal/tomlerr"
	"curate/pipeline"
	"curate/pipeline/envgen"
)

// Config is curate.toml. Decoding is strict: an unknown key or a value of
// the wrong type is an error naming the file, line and column, because a
// silently ignored setting is worse than a refusal.
//
// Each stage owns its section's type; add a field here when a stage grows
// a setting, and document it in the README's configuration section.
type Config struct {
	Workspace WorkspaceConfig       `toml:"workspace"`
	Profile   ProfileConfig         `toml:"profile"`
	Filter    FilterConfig          `toml:"filter"`
	Docker    DockerConfig          `toml:"docker"`
	UI        UIConfig              `toml:"ui"`
	Selection SelectionConfig       `toml:"selection"`
	Export    ExportConfig          `toml:"export"`
	Repos     map[string]RepoConfig `toml:"repos"`
}

// WorkspaceConfig names the workspace.
type WorkspaceConfig struct {
	Name string `toml:"name"`
}

// ProfileConfig picks the rule profile: an embedded one by name, or a file.
type ProfileConfig struct {
	Name string `toml:"name"`
	File string `toml:"file"`
}

// FilterConfig picks the candidate filter preset.
type FilterConfig struct {
	Preset       string `toml:"preset"`
	RequireIssue *bool  `toml:"require_issue"`
}

// DockerConfig says where and how validation runs.
type DockerConfig struct {
	BaseImage      string            `toml:"base_image"`
	LanguageImages map[string]string `toml:"language_images"`
	Hosts          []string          `toml:"hosts"`
	Concurrency    int               `toml:"concurrency"`
	Timeout        string            `toml:"timeout"`
	// CABundle is the PEM bundle builds trust ("" = the system bundle,
	// "none" = add none).
	CABundle string `toml:"ca_bundle"`
}

// SelectionConfig overrides the profile's selection for this workspace:
// a total budget and extra quotas (added to the profile's; one on the
// same dimension and value replaces the profile's, see selection.MergeQuotas).
type SelectionConfig struct {
	Budget *int             `toml:"budget"`
	Quotas []pipeline.Quota `toml:"quotas"`
}

// ExportConfig holds export settings: the Harbor org that prefixes task
// and dataset names ("org/name"); `curate export --org` wins over it.
type ExportConfig struct {
	Org string `toml:"org"`
}

// UIConfig holds workbench preferences.
type UIConfig struct {
	Theme string            `toml:"theme"`
	Mouse *bool             `toml:"mouse"`
	Keys  map[string]string `toml:"keys"`
}

// RepoConfig overrides environment detection for every task of one repo;
// envgen owns it (pipeline stages never import workspace).
type RepoConfig = envgen.RepoConfig

// DefaultConfigText is what `curate init` writes: every section, commented.
const DefaultConfigText = `# curate workspace configuration. Unknown keys are errors.

[workspace]
name = "%s"

[profile]
# Rule profile: an embedded one by name ("ccb"), or a TOML file that
# overrides it (relative to this file).
name = "ccb"
# file = "my-profile.toml"

[filter]
# Candidate filter preset for mined pull requests: taskgen, swesmith or none.
preset = "taskgen"

[docker]
# Base image for built task environments. The default, curate/base:bookworm,
# is made from Debian's archive without a registry (curate env bootstrap,
# or on first use).
# base_image = "curate/base:bookworm"
# CA certificates builds trust to reach package registries (default: the
# system bundle; "none" adds none).
# ca_bundle = "/etc/ssl/certs/ca-certificates.crt"
concurrency = 2
timeout = "10m"
# hosts = ["unix:///var/run/docker.sock"]

[ui]
# theme = "dark"   # dark, light or high-contrast; default: from the terminal background
mouse = true

[selection]
# Total budget; default: the sum of the profile's per-benchmark takes.
# budget = 116
# Extra quotas over sdlc_phase, language, benchmark, difficulty, repo or
# category: min, max, target (counts) or min_share, max_share (of budget).
# quotas = [{ dimension = "language", value = "go", min = 20 }]

[export]
# Harbor org for exported task and dataset names (org/name); a task whose
# task.toml already names an org keeps it unless this or --org is set.
# org = "my-org"

# Per-repository overrides for building tasks:
# [repos."owner/name"]
# install = ["pip install -e ."]
# test_command = "python -m pytest -rA"
`

// LoadConfig reads and strictly decodes a curate.toml.
func LoadConfig(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	return ParseConfig(path, data)
}

// ParseConfig decodes config text; path is used in messages only.
func ParseConfig(path string, data []byte) (*Config, error) {
	var cfg Config
	dec := toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields()
	if err := dec.Decode(&cfg); err != nil {
		return nil, tomlerr.Wrap(path, err)
	}
	if err := cfg.validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &cfg, nil
}

func (c *Config) validate() error {
	switch c.UI.Theme {
	case "", "dark", "light", "high-contrast":
	default:
		return fmt.Errorf("ui.theme %q: want dark, light or high-contrast", c.UI.Theme)
	}
	switch c.Filter.Preset {
	case "", "taskgen", "swesmith", "none":
	default:
		return fmt.Errorf("filter.preset %q: want taskgen, swesmith or none", c.Filter.Preset)
	}
	if c.Selection.Budget != nil && *c.Selection.Budget < 1 {
		return fmt.Errorf("selection.budget %d: must be at least 1", *c.Selection.Budget)
	}
	if c.Docker.Concurrency < 0 {
		return fmt.Errorf("docker.concurrency %d: must be at least 1", c.Docker.Concurrency)
	}
	return nil
}
