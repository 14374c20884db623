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

// writeHarbor copies every selected task dir into a dataset folder with a
// registry.json. Tasks with no task dir are skipped and reported.
func writeHarbor(dest string, in *Input) (*Summary, error) {
	sum := &Summary{Format: "harbor", Out: dest, Files: []string{RegistryFile}}
	err := WriteDir(dest, func(tmp string) error {
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
