package ui

import (
	"time"

	"curate/ui/shared"
)

// The names the binary wires the workbench with.
type (
	Context  = shared.Context
	Services = shared.Services
	Catalog  = shared.Catalog
	// JobServices are what the jobs list (J) starts.
	JobServices = shared.JobServices
)

// NewKeyMap applies curate.toml [ui.keys] (see shared.NewKeyMap).
func NewKeyMap(overrides map[string]string) (*shared.KeyMap, error) {
	return shared.NewKeyMap(overrides)
}

// NewCatalog indexes tasks and runs (see shared.NewCatalog).
var NewCatalog = shared.NewCatalog

type dockerMsg struct{ state shared.DockerState }

type dockerTickMsg time.Time
