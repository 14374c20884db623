package export

import (
	"fmt"
	"io"

	"github.com/pelletier/go-toml/v2"

	"curate/pipeline/taskdir"
)

// DatasetManifest is Harbor's dataset.toml: the dataset's name and each
// task by name with the sha256 digest of its folder, which the registry
// checks on publish.
type DatasetManifest struct {
	Dataset DatasetInfo   `toml:"dataset"`
	Tasks   []DatasetTask `toml:"tasks"`
}

// DatasetInfo is the [dataset] table.
type DatasetInfo struct {
	Name        string `toml:"name"`
	Description string `toml:"description"`
}

// DatasetTask is one [[tasks]] entry.
type DatasetTask struct {
	Name   string `toml:"name"`
	Digest string `toml:"digest"`
}

// DigestRef is a task digest as Harbor and `curate show` write it.
func DigestRef(hex string) string { return "sha256:" + hex }

// datasetTask digests an exported task folder.
func datasetTask(dir, name string) (DatasetTask, error) {
	d, err := taskdir.Digest(dir)
	if err != nil {
		return DatasetTask{}, err
	}
	return DatasetTask{Name: name, Digest: DigestRef(d)}, nil
}

func writeDatasetTOML(w io.Writer, m *DatasetManifest) error {
	fmt.Fprintln(w, "# Harbor dataset manifest written by curate: every task by name with the")
	fmt.Fprintln(w, "# sha256 digest of its folder (`curate show` prints the same digest).")
	return toml.NewEncoder(w).Encode(m)
}

// datasetName is the manifest's "org/name" for a selection.
func datasetName(org, selection string) string {
	return org + "/" + dirName(selection)
}
