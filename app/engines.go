package app

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"

	"curate/pipeline/validate"
	"curate/workspace"
)

// An engine other than Docker (the kubernetes one) registers an opener
// here from its own package, so only the commands that import that
// package compile and link its client library.

// OpenedEngine is the runners of one engine and how many runs each takes
// at once (0: [docker] concurrency).
type OpenedEngine struct {
	Runners     []validate.Runner
	Concurrency int
	Close       func()
}

// EngineOpener opens a named engine for a workspace; notes go to warn.
type EngineOpener func(ctx context.Context, ws *workspace.Workspace, warn io.Writer) (*OpenedEngine, error)

var (
	enginesMu sync.Mutex
	engines   = map[string]EngineOpener{}
)

// RegisterEngine makes `--engine name` open engines with open.
func RegisterEngine(name string, open EngineOpener) {
	enginesMu.Lock()
	defer enginesMu.Unlock()
	engines[name] = open
}

// OpenEngine opens the engine of that name ("" and "docker" are not
// registered: Validate opens Docker engines itself).
func OpenEngine(ctx context.Context, ws *workspace.Workspace, name string, warn io.Writer) (*OpenedEngine, error) {
	enginesMu.Lock()
	open := engines[name]
	names := []string{"docker"}
	for n := range engines {
		names = append(names, n)
	}
	enginesMu.Unlock()
	if open == nil {
		sort.Strings(names)
		return nil, fmt.Errorf("unknown engine %q: want %s", name, strings.Join(names, " or "))
	}
	return open(ctx, ws, warn)
}

// clusterEngine is the engine [kubernetes] configures (app/kubeengine
// registers it).
const clusterEngine = "kubernetes"

// EngineRegistered says whether an engine of that name was registered.
func EngineRegistered(name string) bool {
	enginesMu.Lock()
	defer enginesMu.Unlock()
	return engines[name] != nil
}

// ResolvedConcurrency is the runs at once on each engine that
// concurrency means: itself when set, else the smallest engine's own size
// (validate.Sized), else 1. It is what `validate` says it runs.
func ResolvedConcurrency(engines []validate.Runner, concurrency int) int {
	if concurrency > 0 {
		return concurrency
	}
	n := 0
	for _, e := range engines {
		c := 1
		if s, ok := e.(validate.Sized); ok {
			c = s.Capacity()
		}
		if n == 0 || c < n {
			n = c
		}
	}
	return max(n, 1)
}
