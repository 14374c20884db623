// Package export writes a selection in the formats the field uses: a Harbor
// dataset folder, SWE-bench JSONL, the selection manifest, the methodology
// report and CSV. Every export is built beside its destination and renamed
// into place, so an interrupted export leaves the old one intact.
package export

import (
	"fmt"
	"io"
	"strings"

	"curate/pipeline"
	"curate/pipeline/selection"
	"curate/pipeline/stats"
)

// Item is a selected task and the rule that chose it.
type Item struct {
	Task      *pipeline.Task
	Rationale string
}

// Weight is one score component's weight, in formula order.
type Weight struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
}

// Solve summarises the solver's verdict for the report.
type Solve struct {
	Feasible   bool
	Violations []string
	Shortfalls []selection.Shortfall
	TotalScore float64
	UpperBound float64
	Gap        float64
}

// Input is everything an export needs.
type Input struct {
	Name        string // selection name
	GeneratedBy string
	Config      selection.Config
	Catalogue   []*pipeline.Task
	Selected    []Item
	Stats       *stats.Stats
	// Weights and CategoryWeights come from the score profile; the report
	// prints the formula from them.
	Weights         []Weight
	CategoryWeights map[string]float64
	Solve           *Solve
	// Funnel is the yield of the mined tasks (nil or empty: the report
	// has no "Task construction" section).
	Funnel *stats.Funnel
	// GitURL and GitCommit fill the Harbor registry's task entries.
	GitURL, GitCommit string
	// Org prefixes Harbor task and dataset names ("org/name"); tasks whose
	// task.toml already has an org keep it when Org is empty.
	Org string
	// ScoreKey names the score in each task.toml's [metadata] (the
	// profile's score_key; DefaultScoreKey when empty).
	ScoreKey string
	// Scratch is where a harbor export stages its files (the workspace's
	// .curate/tmp); empty, or on another file system: beside the folder.
	Scratch string
}

// Formats lists the export formats.
var Formats = []string{"harbor", "swebench", "manifest", "report", "csv"}

// File names of the single-file formats.
const (
	ManifestFile = "selected_benchmark_tasks.json"
	ReportFile   = "selection_methodology.md"
	CSVFile      = "selected_tasks.csv"
	SWEBenchFile = "tasks.jsonl"
	RegistryFile = "registry.json"
	DatasetFile  = "dataset.toml"
)

// Summary says what an export wrote.
type Summary struct {
	Format  string   `json:"format"`
	Out     string   `json:"out"`
	Files   []string `json:"files"`
	Tasks   int      `json:"tasks"`
	Skipped []string `json:"skipped,omitempty"` // tasks without a task dir (harbor)
	Missing []string `json:"missing,omitempty"` // tasks whose task dir is gone from disk (harbor)
}

// Write exports in to dest in format.
func Write(format, dest string, in *Input) (*Summary, error) {
	if in.Stats == nil {
		return nil, fmt.Errorf("export: no statistics given")
	}
	single := func(name string, w func(io.Writer) error) (*Summary, error) {
		if err := WriteFiles(dest, format, map[string]func(io.Writer) error{name: w}, []string{name}); err != nil {
			return nil, err
		}
		return &Summary{Format: format, Out: dest, Files: []string{name}, Tasks: len(in.Selected)}, nil
	}
	switch format {
	case "harbor":
		return writeHarbor(dest, in)
	case "swebench":
		return single(SWEBenchFile, func(w io.Writer) error { return writeSWEBench(w, in) })
	case "manifest":
		return single(ManifestFile, func(w io.Writer) error { return writeManifest(w, in) })
	case "report":
		return single(ReportFile, func(w io.Writer) error { return writeReport(w, in) })
	case "csv":
		return single(CSVFile, func(w io.Writer) error { return writeCSV(w, in) })
	}
	return nil, fmt.Errorf("export: unknown format %q (want one of %s)", format, strings.Join(Formats, ", "))
}
