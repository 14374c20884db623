// Package validate runs a task's verification in Docker: NOP and Oracle
// (formats.md section 1) and gold F2P/P2P grading (section 2), with
// reruns, outcome classes and live logs.
package validate

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/pelletier/go-toml/v2"

	"curate/internal/tomlpos"
	"curate/pipeline/taskvalue"
)

// TaskConfig is what validation needs from task.toml.
type TaskConfig struct {
	// NetworkMode is the verifier phase's network, AgentNetworkMode the
	// agent (oracle) phase's: "no-network" (default) or "public"; an
	// allowlist with no hosts is "no-network", one with hosts is refused.
	NetworkMode      string
	AgentNetworkMode string
	CPUs             float64
	MemoryMB         int64
	PidsLimit        int64
	User             string
	Env              map[string]string
	VerifierTimeout  time.Duration // 0 = task.toml names none
	BuildTimeout     time.Duration
	// Schema 1.2-1.4: the working directory test.sh and solve.sh run in,
	// a healthcheck run before them, multi-step tasks.
	Workdir        string
	Healthcheck    *Healthcheck
	Steps          []Step
	RewardStrategy string
	// Verifier is a separate verifier environment (nil: the verifier runs
	// in the agent's container); Artifacts the top-level artifacts paths
	// carried into it with /logs/artifacts (verifierenv.go).
	Verifier  *VerifierEnv
	Artifacts []string
}

// Defaults used when task.toml says nothing.
const (
	DefaultPidsLimit = 4096
	defaultTimeout   = 600 * time.Second // Harbor's default for builds and verifiers
)

// ReadTaskConfig reads dir/task.toml. Older shapes (memory = "8G",
// allow_internet) are accepted; a malformed file is an error naming it; a
// setting the runner cannot enforce is an *UnsupportedError.
func ReadTaskConfig(dir string) (*TaskConfig, error) {
	path := filepath.Join(dir, "task.toml")
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if err := tomlpos.CheckDepth(data); err != nil {
		return nil, tomlpos.WrapDepth(path, err)
	}
	var doc map[string]any
	if err := toml.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil {
		var de *toml.DecodeError
		if ok := asDecodeError(err, &de); ok {
			row, col := de.Position()
			return nil, fmt.Errorf("%s:%d:%d: %s", path, row, col, de.Error())
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	cfg := &TaskConfig{NetworkMode: "no-network", PidsLimit: DefaultPidsLimit, BuildTimeout: defaultTimeout}
	env := table(doc, "environment")
	ver := table(doc, "verifier")
	// The importers' strict reader decides what a value may be, so a task
	// that imported is never refused here for a value it was allowed.
	get := func(t map[string]any, tableName, key string) (any, bool, error) {
		v, ok := t[key]
		if !ok {
			return nil, false, nil
		}
		name := tableName + "." + key
		cv, err := taskvalue.Check(name, taskvalue.TaskTOML[name], v)
		if err != nil {
			return nil, false, fmt.Errorf("%s: %w", path, err)
		}
		return cv, true, nil
	}
	// Schema 1.2-1.4 keys and the network modes (taskschema.go).
	if err := readSchema14(path, doc, cfg); err != nil {
		return nil, err
	}
	seconds := func(f float64) time.Duration { return time.Duration(f * float64(time.Second)) }
	for _, x := range []struct {
		t          map[string]any
		table, key string
		set        func(float64)
	}{
		{env, "environment", "cpus", func(f float64) { cfg.CPUs = f }},
		{env, "environment", "memory", func(f float64) { cfg.MemoryMB = int64(f) }},
		{env, "environment", "memory_mb", func(f float64) { cfg.MemoryMB = int64(f) }}, // wins over memory
		{env, "environment", "pids_limit", func(f float64) { cfg.PidsLimit = int64(f) }},
		{env, "environment", "build_timeout_sec", func(f float64) { cfg.BuildTimeout = seconds(f) }},
		{ver, "verifier", "timeout_sec", func(f float64) { cfg.VerifierTimeout = seconds(f) }},
	} {
		v, ok, err := get(x.t, x.table, x.key)
		if err != nil {
			return nil, err
		}
		if ok {
			x.set(v.(float64))
		}
	}
	if v, ok, err := get(ver, "verifier", "user"); err != nil {
		return nil, err
	} else if ok {
		cfg.User = v.(string)
	}
	if e, ok := ver["env"].(map[string]any); ok {
		cfg.Env = map[string]string{}
		for k, v := range e {
			cfg.Env[k] = fmt.Sprint(v)
		}
	}
	return cfg, nil
}

func asDecodeError(err error, target **toml.DecodeError) bool {
	de, ok := err.(*toml.DecodeError)
	if ok {
		*target = de
	}
	return ok
}

func table(doc map[string]any, name string) map[string]any {
	if t, ok := doc[name].(map[string]any); ok {
		return t
	}
	return map[string]any{}
}
