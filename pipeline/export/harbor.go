package export

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"curate/pipeline"
	"curate/pipeline/taskdir"
)

// RegistryEntry is one dataset of a Harbor registry.json (formats.md §1).
type RegistryEntry struct {
	Name        string           `json:"name"`
	Version     string           `json:"version"`
	Description string           `json:"description"`
	Tasks       []RegistryTask   `json:"tasks"`
	Metrics     []RegistryMetric `json:"metrics"`
}

// RegistryTask points at one task dir of the dataset.
type RegistryTask struct {
	Name        string `json:"name"`
	GitURL      string `json:"git_url"`
	GitCommitID string `json:"git_commit_id"`
	Path        string `json:"path"`
}

// RegistryMetric is how the dataset's rewards aggregate.
type RegistryMetric struct {
	Type string `json:"type"`
}

var unsafeName = regexp.MustCompile(`[^a-zA-Z0-9._-]+`)

// dirName is the dataset folder name of a task: its id made path-safe.
func dirName(id string) string {
	n := strings.Trim(unsafeName.ReplaceAllString(id, "_"), "._")
	if n == "" {
		n = "task"
	}
	return n
}

// writeHarbor copies every selected task dir into a dataset folder, brings
// each task.toml to the current schema ([task] name as org/name, the
// curator's labels in [metadata]) and writes dataset.toml (names and
// digests) beside the legacy registry.json. Tasks with no task dir are
// skipped and reported; a task with no org when none is given is an error.
func writeHarbor(dest string, in *Input) (*Summary, error) {
	sum := &Summary{Format: "harbor", Out: dest, Files: []string{DatasetFile, RegistryFile}}
	if in.Org != "" && !ValidOrg(in.Org) {
		return nil, fmt.Errorf("export harbor: org %q: want letters, digits, . _ - (starting with a letter or digit)", in.Org)
	}
	names := map[string]string{}  // task id -> org/name
	byName := map[string]string{} // org/name -> task id
	var noOrg []string
	for _, it := range in.Selected {
		if it.Task.TaskDir == "" {
			continue
		}
		n := HarborTaskName(taskTOMLName(it.Task.TaskDir), in.Org, dirName(it.Task.ID))
		if n == "" {
			noOrg = append(noOrg, it.Task.ID)
		} else if prev, ok := byName[n]; ok {
			// dataset.toml names each task once: two tasks under one name
			// (e.g. acme/calc-1 and other/calc-1 with --org me) would publish one.
			return nil, fmt.Errorf("export harbor: tasks %s and %s would both be published as %s; give one another [task] name in its task.toml", prev, it.Task.ID, n)
		}
		byName[n] = it.Task.ID
		names[it.Task.ID] = n
	}
	if len(noOrg) > 0 {
		return nil, fmt.Errorf("export harbor: %d tasks have no org in their [task] name (e.g. %s); Harbor publishes org/name: pass --org ORG or set [export] org in curate.toml",
			len(noOrg), strings.Join(noOrg[:min(3, len(noOrg))], ", "))
	}
	err := WriteDir(dest, in.Scratch, func(tmp string) error {
		entry := RegistryEntry{
			Name: in.Name, Version: "1.0",
			Description: fmt.Sprintf("%s: %d tasks selected by curate", title(in), len(in.Selected)),
			Tasks:       []RegistryTask{}, Metrics: []RegistryMetric{{Type: "mean"}},
		}
		used := map[string]string{}
		var jobs []copyJob
		for _, it := range in.Selected {
			t := it.Task
			if t.TaskDir == "" {
				sum.Skipped = append(sum.Skipped, t.ID)
				continue
			}
			if fi, err := os.Stat(t.TaskDir); err != nil || !fi.IsDir() {
				sum.Missing = append(sum.Missing, t.ID) // named by the caller; the rest is written
				continue
			}
			name := dirName(t.ID)
			if prev, ok := used[name]; ok {
				return fmt.Errorf("export harbor: tasks %s and %s map to the same folder %s", prev, t.ID, name)
			}
			used[name] = t.ID
			jobs = append(jobs, copyJob{id: t.ID, src: t.TaskDir, dst: filepath.Join(tmp, name)})
			entry.Tasks = append(entry.Tasks, RegistryTask{Name: t.ID, GitURL: in.GitURL, GitCommitID: in.GitCommit, Path: name})
			sum.Tasks++
		}
		if err := copyAll(jobs); err != nil {
			return err
		}
		org := in.Org
		if org == "" && len(jobs) > 0 { // every task has one: take the first's
			org = strings.SplitN(names[jobs[0].id], "/", 2)[0]
		}
		manifest := &DatasetManifest{Dataset: DatasetInfo{Name: datasetName(org, in.Name), Description: entry.Description}, Tasks: []DatasetTask{}}
		byID := map[string]*pipeline.Task{}
		for _, it := range in.Selected {
			byID[it.Task.ID] = it.Task
		}
		for _, j := range jobs {
			if err := rewriteTaskTOML(filepath.Join(j.dst, "task.toml"), byID[j.id], names[j.id], in.ScoreKey); err != nil {
				return fmt.Errorf("export harbor: task %s: %w", j.id, err)
			}
			dt, err := datasetTask(j.dst, names[j.id])
			if err != nil {
				return fmt.Errorf("export harbor: task %s: %w", j.id, err)
			}
			manifest.Tasks = append(manifest.Tasks, dt)
		}
		f, err := os.Create(filepath.Join(tmp, DatasetFile))
		if err != nil {
			return err
		}
		if err := writeDatasetTOML(f, manifest); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
		data, err := json.MarshalIndent([]RegistryEntry{entry}, "", "  ")
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(tmp, RegistryFile), append(data, '\n'), 0o644)
	})
	if err != nil {
		return nil, err
	}
	return sum, nil
}

type copyJob struct{ id, src, dst string }

// copyAll copies task dirs with a few workers (file copies wait on the
// kernel, so a little parallelism pays even on two cores). The first error
// in selection order is returned.
func copyAll(jobs []copyJob) error {
	errs := make([]error, len(jobs))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(4, len(jobs)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				errs[i] = copyTree(jobs[i].src, jobs[i].dst)
			}
		}()
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return fmt.Errorf("export harbor: task %s: %w", jobs[i].id, err)
		}
	}
	return nil
}

// copyTree copies a task dir. Symlinks are refused: a link could point
// outside the task and leak a file into the dataset.
func copyTree(src, dst string) error {
	fi, err := os.Stat(src)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a folder", src)
	}
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		if rel == "." {
			return os.MkdirAll(dst, 0o755)
		}
		target, err := taskdir.SafeJoin(dst, rel)
		if err != nil {
			return err
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			return fmt.Errorf("%s is a symbolic link; task dirs must hold plain files", path)
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case d.Type().IsRegular():
			return taskdir.CopyFile(path, target)
		default:
			return fmt.Errorf("%s is not a regular file", path)
		}
	})
}
