package envgen

import "curate/pipeline/filter"

// DefaultBaseImage is the image `curate env bootstrap` makes from Debian's
// archive without a registry; validation makes it on first use.
const DefaultBaseImage = "curate/base:bookworm"

// RepoConfig overrides environment detection for every task of one repo
// (curate.toml's [repos."owner/name"]).
type RepoConfig struct {
	Language    string   `toml:"language"`
	BaseImage   string   `toml:"base_image"`
	Install     []string `toml:"install"`
	TestCommand string   `toml:"test_command"`
	Dockerfile  []string `toml:"dockerfile"` // extra Dockerfile lines, after the install steps
	// At is the build strategy of the repo's tasks (merge, snapshot or
	// auto); curate build --at wins over it.
	At string `toml:"at"`
	// Snapshot is the revision snapshot builds mirror PRs onto (default:
	// the default branch tip when first built, recorded).
	Snapshot string `toml:"snapshot"`
}

// Config is what a build needs besides the task.
type Config struct {
	BaseImage      string            // --base-image; wins over [docker] base_image
	DockerBase     string            // [docker] base_image
	LanguageImages map[string]string // [docker] language_images
	Repos          map[string]RepoConfig
	Filter         *filter.Config
	MaxFileBytes   int64
	// Network is what builds need to reach package registries (CA bundle,
	// registry settings); the zero value adds nothing.
	Network Network
	// Snapshot, when set, builds the task by mirroring its PR onto this
	// revision (the snapshot strategy); "" = at the PR's merge commit.
	Snapshot string
	// Scratch is where a build works (the workspace's .curate/tmp, on the
	// task dirs' file system); "" = beside the task dir and the system's
	// temporary folder.
	Scratch string
	// Finish, when set, adds to the staged task dir before it replaces
	// the old one (the problem statement), so a kill never leaves a task
	// dir that its row does not describe.
	Finish func(dir string) error
}

// Image picks the base image: the repo's override, then --base-image,
// then [docker] language_images, then [docker] base_image, then the default.
func (c Config) Image(repo, lang string) string {
	for _, s := range []string{c.Repos[repo].BaseImage, c.BaseImage, c.LanguageImages[lang], c.DockerBase} {
		if s != "" {
			return s
		}
	}
	return DefaultBaseImage
}
