package pipeline

// TaskLayerMarker starts the comment line that splits a task's
// environment/Dockerfile in two: above it, the repository's environment
// (toolchain, dependencies, the repository and its install), built once
// per content and shared by every task with the same lines and files;
// below it, the task's own layer (its patches), built on that image.
// The whole file stays a valid Dockerfile, so an exported task builds
// anywhere in one go. The marker line ends with "(network: none)" or
// "(network: install)": whether the task layer needs a registry.
const TaskLayerMarker = "# curate: task layer"

// Build strategies (curate build --at).
const (
	AtMerge    = "merge"    // the environment at the PR's merge commit (TaskGen)
	AtSnapshot = "snapshot" // the PR mirrored onto one snapshot per repository (SWE-smith)
	AtAuto     = "auto"     // snapshot when the PR mirrors and the repo's env check passed
)

// Task.Extra keys a build records.
const (
	ExtraBuildStrategy = "build_strategy" // merge or snapshot
	ExtraSnapshot      = "snapshot"       // the snapshot commit (snapshot strategy)
	ExtraMirrorMethod  = "mirror_method"  // reverse, 3way or fuzz
	ExtraRepoImage     = "repo_image"     // the repository environment image the task stands on
	// ExtraBuildNotes are what the image build decided that the plan could
	// not know (a version the registry lacked and the one installed in its
	// place, lifecycle scripts left out): the lines a dependency step wrote
	// to BuildNotesFile, which every validation run prints after
	// BuildNotePrefix; validate keeps the last run's on the task, a build
	// that changes the task's digest drops them.
	ExtraBuildNotes = "build_notes"
	// ExtraBuildError is the first line of the error that stopped the
	// task's last build outside the checks (git could not pack its tree):
	// the task stays a candidate, the funnel shows why it is not built.
	ExtraBuildError = "build_error"
)

// BuildNotesFile is where a dependency step writes its "curate: note: "
// lines in the image; BuildNotePrefix starts each when a run prints them.
const (
	BuildNotesFile  = "/var/lib/curate/build-notes"
	BuildNotePrefix = "curate: build note: "
)

// BuildNotes are the build notes recorded on t (ExtraBuildNotes).
func BuildNotes(t *Task) []string { return ExtraStrings(t, ExtraBuildNotes) }
