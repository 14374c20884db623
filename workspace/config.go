package workspace

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"

	"curate/internal/tomlerr"
	"curate/internal/tomlpos"
	"curate/pipeline"
	"curate/pipeline/envgen"
	"curate/pipeline/selection"
	"curate/pipeline/taskvalue"
	"curate/pipeline/validate/egress"
)

// Config is curate.toml. Decoding is strict: an unknown key or a value of
// the wrong type is an error naming the file, line and column, because a
// silently ignored setting is worse than a refusal.
//
// Each stage owns its section's type; add a field here when a stage grows
// a setting, and document it in the README's configuration section.
type Config struct {
	Workspace WorkspaceConfig  `toml:"workspace"`
	Profile   ProfileConfig    `toml:"profile"`
	Filter    FilterConfig     `toml:"filter"`
	Docker    DockerConfig     `toml:"docker"`
	Network   NetworkConfig    `toml:"network"`
	Kube      KubernetesConfig `toml:"kubernetes"`
	UI        UIConfig         `toml:"ui"`
	Selection SelectionConfig  `toml:"selection"`
	Export    ExportConfig     `toml:"export"`
	// Instructions say what instruction.md adds to the statement.
	Instructions InstructionsConfig    `toml:"instructions"`
	EnvCheck     EnvCheckConfig        `toml:"env_check"`
	Repos        map[string]RepoConfig `toml:"repos"`

	path      string                 // the file, for messages
	positions map[string]tomlpos.Pos // where each key is written
}

// InstructionsConfig: hints = "tests" lists the FAIL_TO_PASS tests in
// instruction.md, "failures" adds the first message each printed in the
// NOP run; "none" (the default) says nothing about the tests.
type InstructionsConfig struct {
	Hints string `toml:"hints"`
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
	// Memory and CPUs bound every validation container unless the task's
	// task.toml sets its own ([environment] memory/memory_mb, cpus).
	Memory string  `toml:"memory"`
	CPUs   float64 `toml:"cpus"`
	// User runs validation containers of images that would run as root
	// as this user ("name", "uid" or "uid:gid") unless task.toml's
	// [verifier] user says otherwise; "" keeps root (see README,
	// Containment).
	User string `toml:"user"`
	// TaskNetwork is what a task's allow_internet gets: "allowlist" (the
	// default: the egress proxy, as builds), "none" or "public".
	TaskNetwork string `toml:"task_network"`
	// Caps bound what any task.toml may ask of a container.
	CapsConfig
}

// NetworkConfig lists the hosts builds (and allowlisted tasks) may reach
// besides the package registries; a host listed here may be on a private
// address (a registry mirror on the local network).
type NetworkConfig struct {
	Allow []string `toml:"allow"`
	// PackageCache is the folder curate's package cache keeps downloads
	// in: "" = the user's cache folder (shared by workspaces), "off" =
	// builds download from the registries themselves.
	PackageCache string `toml:"package_cache"`
}

// CapsConfig are ceilings over every task's values ([docker] max_memory,
// max_cpus, max_pids, max_disk, max_log; [kubernetes] takes the same).
// Zero or absent: the defaults of validate.DefaultCaps.
type CapsConfig struct {
	MaxMemory string  `toml:"max_memory"` // a size: "8G"
	MaxCPUs   float64 `toml:"max_cpus"`
	MaxPids   int64   `toml:"max_pids"`
	MaxDisk   string  `toml:"max_disk"` // a container's writable layer
	MaxLog    string  `toml:"max_log"`  // one run's log file
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
# Rule profile: an embedded one by name ("swe": neutral, a benchmark of your
# own; "ccb": CodeContextBench's MCP benefit score and per-benchmark
# strategies), or a TOML file that overrides it (relative to this file).
name = "%s"
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
# Runs at once on each engine (builds share the same slots); 0: from each
# engine's size, one per CPU and no more than its memory holds at the
# per-run memory below.
concurrency = 0
timeout = "10m"
# Limits of each validation container whose task.toml sets none.
# memory = "4G"
# cpus = 2
# Ceilings over what any task.toml asks (a task's bigger values are
# lowered and the run's log says so). Defaults: memory min(8G, the
# engine's), cpus the engine's, pids 32768, disk 10G, log 64M.
# max_memory = "8G"
# max_cpus = 2
# max_pids = 32768
# max_disk = "10G"
# max_log = "64M"
# Run containers of images that would run as root as this user instead
# (tests that write into the repository or $HOME caches may then fail).
# user = "1000:1000"
# hosts = ["unix:///var/run/docker.sock"]
# What a task's allow_internet = true gets: "allowlist" (the package
# registries and [network] allow, through curate's egress proxy), "none"
# or "public" (the engine's bridge network).
# task_network = "allowlist"

[network]
# Hosts builds may reach besides PyPI, npm, crates.io, Maven Central, the
# Go proxy and Debian's archive: a mirror, even on a private address.
# allow = ["mirror.internal.example", "*.corp.example", "10.0.0.5"]
# Where builds keep what they download from the registries (Go modules,
# npm tarballs, wheels, Maven jars), so the next image gets it from here:
# default the user's cache folder, shared by workspaces; "off" = none.
# package_cache = "~/.cache/curate/packages"

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

[instructions]
# hints = "none"   # "tests": instruction.md lists the FAIL_TO_PASS tests;
#                  # "failures": each with the first message it printed in the NOP run

[env_check]
# Which tests curate env check runs: "touched" (the test files the mined
# PRs change, at the snapshot) or "all" (every test file).
# scope = "touched"
# How long the suite may run; a check that runs out keeps what it has and
# names the test files it did not reach (their PRs build at the merge commit).
# budget = "20m"
# budgets = { java = "40m", rust = "40m" }

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

// ParseConfig decodes config text and checks every value; path is used
// in messages only. Every error is "path:line:col: ...".
func ParseConfig(path string, data []byte) (*Config, error) {
	var cfg Config
	dec := toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields()
	if err := dec.Decode(&cfg); err != nil {
		return nil, tomlerr.Wrap(path, err)
	}
	cfg.path, cfg.positions = path, tomlpos.Positions(data)
	var raw map[string]any
	if err := toml.Unmarshal(data, &raw); err == nil {
		if key := nulKey("", raw); key != "" {
			// A NUL would end the string early in a shell script or a C API.
			return nil, cfg.Errorf(key, "holds a NUL byte (\\u0000); remove it")
		}
	}
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	return &cfg, nil
}

// nulKey is the dotted key of the first string under v (in key order)
// that holds a NUL byte, "" when none does.
func nulKey(prefix string, v any) string {
	join := func(k string) string {
		if prefix == "" {
			return k
		}
		return prefix + "." + k
	}
	switch x := v.(type) {
	case string:
		if strings.ContainsRune(x, 0) {
			return prefix
		}
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if strings.ContainsRune(k, 0) {
				return join(strings.ReplaceAll(k, "\x00", `\0`))
			}
			if key := nulKey(join(k), x[k]); key != "" {
				return key
			}
		}
	case []any:
		for i, e := range x {
			if key := nulKey(join(strconv.Itoa(i)), e); key != "" {
				return key
			}
		}
	}
	return ""
}

// Errorf reports a bad value of key (a dotted path such as "ui.keys.undo"
// or "selection.quotas.1.min") as "file:line:col: key: message", at the
// key, else at its nearest written parent. Checks that need other packages
// (the profile, the workbench's key names) report through it too.
func (c *Config) Errorf(key, format string, args ...any) error {
	p := tomlpos.Find(c.positions, key)
	return fmt.Errorf("%s:%d:%d: %s: %s", c.path, p.Line, p.Col, key, fmt.Sprintf(format, args...))
}

func (c *Config) validate() error {
	switch c.UI.Theme {
	case "", "dark", "light", "high-contrast":
	default:
		return c.Errorf("ui.theme", "%q: want dark, light or high-contrast", c.UI.Theme)
	}
	switch c.Instructions.Hints {
	case "", "none", "tests", "failures":
	default:
		return c.Errorf("instructions.hints", "%q: want none, tests or failures", c.Instructions.Hints)
	}
	switch c.Filter.Preset {
	case "", "taskgen", "swesmith", "none":
	default:
		return c.Errorf("filter.preset", "%q: want taskgen, swesmith or none", c.Filter.Preset)
	}
	if c.Selection.Budget != nil && *c.Selection.Budget < 1 {
		return c.Errorf("selection.budget", "%d: must be at least 1", *c.Selection.Budget)
	}
	for i, q := range c.Selection.Quotas {
		if err := selection.ValidateQuota(q); err != nil {
			return c.Errorf(fmt.Sprintf("selection.quotas.%d", i), "quota %d (%s): %v", i+1, selection.QuotaLabel(q), err)
		}
	}
	if err := c.validateRepos(); err != nil {
		return err
	}
	if err := c.validateKubernetes(); err != nil {
		return err
	}
	if err := c.validateEnvCheck(); err != nil {
		return err
	}
	return c.validateDocker()
}

// validateRepos checks [repos."owner/name"] at and snapshot.
func (c *Config) validateRepos() error {
	for name, r := range c.Repos {
		key := fmt.Sprintf("repos.%s", name)
		switch r.At {
		case "", pipeline.AtMerge, pipeline.AtSnapshot, pipeline.AtAuto:
		default:
			return c.Errorf(key+".at", "%q: want merge, snapshot or auto", r.At)
		}
		if r.Snapshot != "" && (strings.HasPrefix(r.Snapshot, "-") || strings.ContainsAny(r.Snapshot, " \t\n:")) {
			return c.Errorf(key+".snapshot", "%q: want a revision (a commit, tag or branch)", r.Snapshot)
		}
	}
	return nil
}

// dockerUser is what Docker accepts as a container's user.
var dockerUser = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]*(:[A-Za-z0-9_][A-Za-z0-9_.-]*)?$`)

func (c *Config) validateDocker() error {
	d := c.Docker
	if d.Concurrency < 0 {
		return c.Errorf("docker.concurrency", "%d: must be 0 (from each engine's CPUs and memory) or more", d.Concurrency)
	}
	if d.Timeout != "" {
		if t, err := time.ParseDuration(d.Timeout); err != nil || t <= 0 {
			return c.Errorf("docker.timeout", "%q: want a positive duration such as \"10m\" or \"90s\"", d.Timeout)
		}
	}
	for i, h := range d.Hosts {
		if !strings.Contains(h, "://") {
			return c.Errorf(fmt.Sprintf("docker.hosts.%d", i), "%q: want an engine address such as unix:///var/run/docker.sock or tcp://host:2376", h)
		}
	}
	if d.Memory != "" {
		if _, err := taskvalue.Check("docker.memory", taskvalue.Spec{Kind: taskvalue.Size}, d.Memory); err != nil {
			return c.Errorf("docker.memory", "%q: want a size such as \"4G\" or \"512M\"", d.Memory)
		}
	}
	if d.CPUs < 0 || math.IsNaN(d.CPUs) || math.IsInf(d.CPUs, 0) {
		return c.Errorf("docker.cpus", "%v: want a number > 0 (0 or absent: the default)", d.CPUs)
	}
	if err := c.ValidateCaps("docker", d.CapsConfig); err != nil {
		return err
	}
	if d.User != "" && !dockerUser.MatchString(d.User) {
		return c.Errorf("docker.user", "%q: want a user name or uid, optionally :group or :gid, such as \"1000:1000\"", d.User)
	}
	switch d.TaskNetwork {
	case "", "none", "allowlist", "public":
	default:
		return c.Errorf("docker.task_network", "%q: want none, allowlist or public", d.TaskNetwork)
	}
	for i, h := range c.Network.Allow {
		if _, err := egress.NewAllowlist(nil, nil, []string{h}); err != nil {
			return c.Errorf(fmt.Sprintf("network.allow.%d", i), "%v", err)
		}
	}
	if pc := c.Network.PackageCache; pc != "" && pc != "off" && !filepath.IsAbs(pc) && !strings.HasPrefix(pc, "~/") {
		return c.Errorf("network.package_cache", "%q: want an absolute folder, ~/folder, or off", pc)
	}
	for lang, img := range d.LanguageImages {
		if strings.TrimSpace(img) == "" {
			return c.Errorf("docker.language_images."+lang, "empty image name")
		}
	}
	return nil
}

// ValidateCaps checks a caps table ("docker", "kubernetes").
func (c *Config) ValidateCaps(section string, caps CapsConfig) error {
	for key, v := range map[string]string{"max_memory": caps.MaxMemory, "max_disk": caps.MaxDisk, "max_log": caps.MaxLog} {
		if v == "" {
			continue
		}
		if _, err := taskvalue.Check(section+"."+key, taskvalue.Spec{Kind: taskvalue.Size}, v); err != nil {
			return c.Errorf(section+"."+key, "%q: want a size such as \"8G\" or \"512M\"", v)
		}
	}
	if caps.MaxCPUs < 0 || math.IsNaN(caps.MaxCPUs) || math.IsInf(caps.MaxCPUs, 0) {
		return c.Errorf(section+".max_cpus", "%v: want a number > 0 (0 or absent: the engine's processors)", caps.MaxCPUs)
	}
	if caps.MaxPids < 0 || caps.MaxPids > taskvalue.MaxPids {
		return c.Errorf(section+".max_pids", "%d: want 1 to %d (0 or absent: the default)", caps.MaxPids, taskvalue.MaxPids)
	}
	return nil
}
