package envgen

import (
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"curate/pipeline"
)

type taskTOML struct {
	SchemaVersion string         `toml:"schema_version"`
	Source        string         `toml:"source"`
	Task          tomlTask       `toml:"task"`
	Metadata      map[string]any `toml:"metadata"`
	Verifier      tomlTimeout    `toml:"verifier"`
	Agent         tomlTimeout    `toml:"agent"`
	Environment   tomlEnv        `toml:"environment"`
}

type tomlTask struct {
	Name        string   `toml:"name"`
	Description string   `toml:"description"`
	Keywords    []string `toml:"keywords"`
}

type tomlTimeout struct {
	TimeoutSec int `toml:"timeout_sec"`
}

type tomlEnv struct {
	BuildTimeoutSec int    `toml:"build_timeout_sec"`
	CPUs            int    `toml:"cpus"`
	MemoryMB        int    `toml:"memory_mb"`
	StorageMB       int    `toml:"storage_mb"`
	Workdir         string `toml:"workdir"`
}

// Difficulty guesses a difficulty from the size of the fix.
func Difficulty(loc, files int) pipeline.Difficulty {
	switch {
	case loc <= 10 && files <= 1:
		return pipeline.Difficulty("easy")
	case loc <= 60 && files <= 3:
		return pipeline.Difficulty("medium")
	case loc <= 300:
		return pipeline.Difficulty("hard")
	default:
		return pipeline.Difficulty("very_hard")
	}
}

// TaskTOML renders task.toml (schema 1.x) with the mined features in
// [metadata], with how it was built (build_strategy, and for a snapshot
// build snapshot_commit and mirror_method) from the plan's Layer.
func TaskTOML(t *pipeline.Task, lang string, linked []string, plan *Plan) ([]byte, error) {
	owner, name, _ := strings.Cut(t.Repo, "/")
	meta := map[string]any{
		"difficulty":    string(Difficulty(t.Features.Int(pipeline.FeatLOCChanged), t.Features.Int(pipeline.FeatFilesChanged))),
		"category":      t.Category,
		"tags":          []string{"mined", t.Source, lang, t.Category},
		"language":      lang,
		"repo":          t.Repo,
		"pr":            t.PR,
		"base_commit":   t.BaseCommit,
		"head_commit":   t.HeadCommit,
		"linked_issues": linked,
	}
	if plan != nil {
		if plan.Test.LogFormat != "" {
			meta["log_format"] = plan.Test.LogFormat
		}
		if plan.Toolchain.Name != "" {
			meta["toolchain"] = strings.TrimSpace(plan.Toolchain.Name + " " + plan.Toolchain.Version)
		}
		if len(plan.Notes) > 0 {
			meta["environment_notes"] = plan.Notes
		}
		// Only when something was decided: tasks without a decision keep
		// their files, and so their digests.
		if len(plan.Decisions) > 0 {
			var ds []string
			for _, d := range plan.Decisions {
				ds = append(ds, strings.TrimPrefix(d.String(), "toolchain: "))
			}
			meta["toolchain_decisions"] = ds
		}
	}
	if plan != nil && plan.Layer.Strategy != "" {
		meta["build_strategy"] = plan.Layer.Strategy
		if plan.Layer.Strategy == pipeline.AtSnapshot {
			meta["snapshot_commit"], meta["mirror_method"] = plan.Layer.Revision, plan.Layer.Method
		}
	}
	for k, v := range t.Features.Values {
		if v == float64(int64(v)) {
			meta[k] = int64(v)
		} else {
			meta[k] = v
		}
	}
	doc := taskTOML{
		SchemaVersion: "1.1",
		Source:        "curate mine " + t.Source + " " + t.Repo,
		Task: tomlTask{
			Name:        owner + "/" + name + "-" + strconv.Itoa(t.PR),
			Description: t.Title,
			Keywords:    []string{lang, t.Category},
		},
		Metadata:    meta,
		Verifier:    tomlTimeout{TimeoutSec: 600},
		Agent:       tomlTimeout{TimeoutSec: 600},
		Environment: tomlEnv{BuildTimeoutSec: 600, CPUs: 1, MemoryMB: 2048, StorageMB: 10240, Workdir: "/app"},
	}
	if plan != nil && plan.VerifierTimeoutSec > 0 {
		doc.Verifier.TimeoutSec = plan.VerifierTimeoutSec
	}
	if plan != nil && plan.MemoryMB > 0 {
		doc.Environment.MemoryMB = plan.MemoryMB
	}
	if plan != nil && plan.BuildTimeoutSec > 0 {
		doc.Environment.BuildTimeoutSec = plan.BuildTimeoutSec
	}
	return toml.Marshal(doc)
}
