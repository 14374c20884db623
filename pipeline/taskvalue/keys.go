package taskvalue

import "curate/pipeline"

var (
	short      = Spec{Kind: String}
	text       = Spec{Kind: String, Max: MaxText}
	patch      = Spec{Kind: String, Max: MaxPatch}
	id         = Spec{Kind: ID}
	difficulty = Spec{Kind: Difficulty}
	feature    = Spec{Kind: Feature}
	network    = Spec{Kind: OneOf, Values: []string{"public", "no-network", "allowlist"}}

	// Ranges of what a task may ask of a container. Values inside are
	// clamped to the workspace's caps ([docker] max_*) when a run starts;
	// values outside are no machine's and are refused when the task is read.
	cpus    = Spec{Kind: Positive, Min: 0.01, Limit: MaxCPUs}
	memory  = Spec{Kind: Size, Min: 6, Limit: MaxMemoryMB} // Docker's floor is 6 MB
	memMB   = Spec{Kind: Positive, Min: 6, Limit: MaxMemoryMB}
	storMB  = Spec{Kind: Positive, Limit: MaxStorageMB}
	storage = Spec{Kind: Size, Limit: MaxStorageMB}
	pids    = Spec{Kind: Positive, Limit: MaxPids}
	seconds = Spec{Kind: Positive, Limit: MaxSeconds}
)

// The ranges above, for docs and messages.
const (
	MaxCPUs      = 1024
	MaxMemoryMB  = 16 << 20 // 16 TiB
	MaxStorageMB = 64 << 20 // 64 TiB
	MaxPids      = 4194304  // Linux's PID_MAX_LIMIT
	MaxSeconds   = 7 * 24 * 3600
)

// TaskTOML are the task.toml keys (flattened "table.key") with a meaning.
var TaskTOML = map[string]Spec{
	"task.id": id, "task.task_id": id, "metadata.task_id": id,
	"task.name":        {Kind: String, Max: 256},
	"task.description": text,
	"task.keywords":    {Kind: StringList, Max: MaxShort},
	"metadata.tags":    {Kind: StringList, Max: MaxShort},
	"task.difficulty":  difficulty, "metadata.difficulty": difficulty,
	"task.category": short, "metadata.category": short,
	"task.language": short, "metadata.language": short,
	"task.repo": short, "metadata.repo": short, "metadata.repository": short, "task.repository": short,
	"metadata.benchmark": short, "task.benchmark": short,
	"task.pre_fix_rev": short, "task.base_commit": short, "metadata.base_commit": short, "metadata.pre_fix_rev": short,

	"environment.cpus": cpus, "environment.memory_mb": memMB, "environment.storage_mb": storMB,
	"environment.gpus":   feature,
	"environment.memory": memory, "environment.storage": storage,
	"environment.build_timeout_sec": seconds, "environment.pids_limit": pids,
	"environment.network_mode": network, "verifier.network_mode": network,
	"environment.allow_internet": {Kind: Bool},
	"environment.docker_image":   short, "environment.workdir": short,
	"verifier.timeout_sec": seconds,
	"agent.timeout_sec":    feature, "task.time_limit_sec": feature, // 0 = no limit in real files
	"verifier.user": short,
}

// FeatureKeys are the metadata keys read as numeric features.
var FeatureKeys = map[string]bool{
	pipeline.FeatFilesChanged: true, pipeline.FeatLOCChanged: true, pipeline.FeatLinesAdded: true,
	pipeline.FeatLinesRemoved: true, pipeline.FeatContextLength: true, pipeline.FeatFilesCount: true,
	pipeline.FeatSourceFiles: true, pipeline.FeatTestFiles: true, pipeline.FeatCodeRatio: true,
	pipeline.FeatRepoCount: true, pipeline.FeatCodebaseLOC: true, pipeline.FeatBaselineRuntime: true,
}

func init() {
	for k := range FeatureKeys {
		TaskTOML["metadata."+k] = feature
	}
}

// SWEbench are the JSONL columns with a meaning (SWE-bench, Verified,
// SWE-smith, SWE-bench Pro). List columns may also be JSON-encoded strings;
// the importer decodes those before checking.
var SWEbench = map[string]Spec{
	"instance_id": id, "repo": short, "base_commit": short, "environment_setup_commit": short,
	"version": short, "created_at": short, "image_name": short, "repo_language": short,
	"difficulty":        difficulty,
	"problem_statement": {Kind: String, Max: MaxInstruction}, "hints_text": text,
	"patch": patch, "test_patch": patch,
	"FAIL_TO_PASS": {Kind: StringList}, "PASS_TO_PASS": {Kind: StringList},
	"fail_to_pass": {Kind: StringList}, "pass_to_pass": {Kind: StringList},
	"selected_test_files_to_run": {Kind: StringList},
}

// Manifest are the keys of one selected_benchmark_tasks.json entry.
var Manifest = map[string]Spec{
	"task_id": id, "benchmark": short, "sdlc_phase": short, "language": short,
	"difficulty": difficulty, "category": short, "repo": short,
	"mcp_benefit_score": feature, "selection_rationale": text, "task_dir": {Kind: String, Max: 4096},
}
