// Package validate runs a task's verification in Docker: NOP and Oracle
// (formats.md section 1) and gold F2P/P2P grading (section 2), with
// reruns, outcome classes and live logs.
package validate

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"
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
	bad := func(key string, v any) error {
		return fmt.Errorf("%s: %s = %v: not a valid value", path, key, v)
	}
	if err := readSchema14(path, doc, cfg); err != nil {
		return nil, err
	}
	if v, ok := env["cpus"]; ok {
		f, ok := number(v)
		if !ok || f < 0 {
			return nil, bad("environment.cpus", v)
		}
		cfg.CPUs = f
	}
	if v, ok := env["memory_mb"]; ok {
		f, ok := number(v)
		if !ok || f < 0 {
			return nil, bad("environment.memory_mb", v)
		}
		cfg.MemoryMB = int64(f)
	} else if v, ok := env["memory"]; ok {
		mb, err := parseSize(fmt.Sprint(v))
		if err != nil {
			return nil, bad("environment.memory", v)
		}
		cfg.MemoryMB = mb
	}
	if v, ok := env["pids_limit"]; ok {
		f, ok := number(v)
		if !ok || f < 1 {
			return nil, bad("environment.pids_limit", v)
		}
		cfg.PidsLimit = int64(f)
	}
	if v, ok := env["build_timeout_sec"]; ok {
		f, ok := number(v)
		if !ok || f <= 0 {
			return nil, bad("environment.build_timeout_sec", v)
		}
		cfg.BuildTimeout = time.Duration(f * float64(time.Second))
	}
	if v, ok := ver["timeout_sec"]; ok {
		f, ok := number(v)
		if !ok || f <= 0 {
			return nil, bad("verifier.timeout_sec", v)
		}
		cfg.VerifierTimeout = time.Duration(f * float64(time.Second))
	}
	if v, ok := ver["user"]; ok {
		s, ok := v.(string)
		if !ok {
			return nil, bad("verifier.user", v)
		}
		cfg.User = s
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

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case int64:
		return float64(n), true
	case float64:
		return n, true
	}
	return 0, false
}

// parseSize reads "8G", "512M", "2048" (MB) into megabytes.
func parseSize(s string) (int64, error) {
	s = strings.ToUpper(strings.TrimSpace(s))
	s = strings.TrimSuffix(s, "B")
	mult := 1.0
	switch {
	case strings.HasSuffix(s, "G"):
		mult, s = 1024, strings.TrimSuffix(s, "G")
	case strings.HasSuffix(s, "M"):
		s = strings.TrimSuffix(s, "M")
	case strings.HasSuffix(s, "K"):
		mult, s = 1.0/1024, strings.TrimSuffix(s, "K")
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 0 {
		return 0, fmt.Errorf("bad size %q", s)
	}
	return int64(f * mult), nil
}
