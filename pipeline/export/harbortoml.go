package export

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"curate/pipeline"
)

// HarborSchemaVersion is the task.toml schema an export writes (Harbor's
// current one; 1.1 added [task] name, 1.2-1.4 environment.os, workdir,
// healthcheck, allowlist networks, artifacts, [[steps]] and separate
// verifier environments, all of which are kept as the task has them).
const HarborSchemaVersion = "1.4"

// DefaultScoreKey is the [metadata] key of the score when the profile
// names none: the CodeContextBench manifest's name for it.
const DefaultScoreKey = "mcp_benefit_score"

// harborName is Harbor's rule for a task or dataset name: "org/name".
var harborName = regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9._-]*/[a-zA-Z0-9][a-zA-Z0-9._-]*$`)

// harborOrg is the org part alone.
var harborOrg = regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9._-]*$`)

// ValidOrg reports whether org can head a Harbor name.
func ValidOrg(org string) bool { return harborOrg.MatchString(org) }

// HarborTaskName is the "org/name" a task is published under: the task's
// own [task] name when it has one and no org is forced, else org + "/" +
// the name part (or the folder name). An empty result means the task has
// no org and none was given.
func HarborTaskName(existing, org, folder string) string {
	part := folder
	if harborName.MatchString(existing) {
		if org == "" {
			return existing
		}
		part = existing[strings.IndexByte(existing, '/')+1:]
	} else if existing != "" && harborOrg.MatchString(existing) {
		part = existing
	}
	part = strings.TrimLeft(part, "-")
	if org == "" || part == "" {
		return ""
	}
	return org + "/" + part
}

// rewriteTaskTOML brings an exported task's task.toml to the current
// schema: schema_version (replacing the deprecated `version`), [task] name
// as org/name, the curator's labels in [metadata]. Every other key, known
// or not, is kept as it was.
func rewriteTaskTOML(path string, t *pipeline.Task, name, scoreKey string) error {
	doc := map[string]any{}
	data, err := os.ReadFile(path)
	switch {
	case err == nil:
		if err := toml.Unmarshal(data, &doc); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	case !os.IsNotExist(err):
		return err
	}
	if v, ok := doc["version"]; ok {
		if _, has := doc["schema_version"]; !has {
			doc["schema_version"] = v
		}
		delete(doc, "version")
	}
	if s, _ := doc["schema_version"].(string); !newerSchema(s, HarborSchemaVersion) {
		doc["schema_version"] = HarborSchemaVersion
	}
	task := subTable(doc, "task")
	task["name"] = name
	meta := subTable(doc, "metadata")
	set := func(k, v string) {
		if v != "" {
			meta[k] = v
		}
	}
	set("difficulty", string(t.EffectiveDifficulty()))
	set("category", t.EffectiveCategory())
	set("sdlc_phase", t.Phase())
	set("language", t.Language)
	set("benchmark", t.Benchmark)
	set("curator_note", t.Labels.Note)
	if t.Score > 0 {
		if scoreKey == "" {
			scoreKey = DefaultScoreKey
		}
		meta[scoreKey] = t.Score
	}
	out, err := toml.Marshal(doc)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return os.WriteFile(path, out, 0o644)
}

// newerSchema reports whether version a is later than b ("1.10" > "1.4").
func newerSchema(a, b string) bool {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(pa) || i < len(pb); i++ {
		var x, y int
		var err error
		if i < len(pa) {
			if x, err = strconv.Atoi(pa[i]); err != nil {
				return false
			}
		}
		if i < len(pb) {
			y, _ = strconv.Atoi(pb[i])
		}
		if x != y {
			return x > y
		}
	}
	return false
}

// subTable returns doc[key] as a table, creating it (or replacing a
// non-table value, which Harbor would reject anyway).
func subTable(doc map[string]any, key string) map[string]any {
	if m, ok := doc[key].(map[string]any); ok {
		return m
	}
	m := map[string]any{}
	doc[key] = m
	return m
}

// taskTOMLName reads the [task] name a task dir already has ("" if none).
func taskTOMLName(dir string) string {
	data, err := os.ReadFile(filepath.Join(dir, "task.toml"))
	if err != nil {
		return ""
	}
	var doc struct {
		Task struct {
			Name string `toml:"name"`
		} `toml:"task"`
	}
	if toml.Unmarshal(data, &doc) != nil {
		return ""
	}
	return doc.Task.Name
}
