package harbor

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"curate/pipeline"
	"curate/pipeline/score"
	"curate/pipeline/taskdir"
	"curate/pipeline/taskvalue"
)

// MaxFileSize is the largest file a task dir may hold: bigger files are
// almost always a committed dataset or binary that does not belong there.
const MaxFileSize = 50 << 20

// Find returns every task directory (a folder with task.toml) under root,
// in walk order. It does not descend into a task dir or follow symlinks.
func Find(root string) ([]string, error) {
	fi, err := os.Stat(root)
	if err != nil {
		return nil, fmt.Errorf("import %s: %w", root, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("import %s: not a folder (want a task dir or a folder of task dirs)", root)
	}
	var dirs []string
	err = filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !e.IsDir() {
			return nil
		}
		if path != root && strings.HasPrefix(e.Name(), ".") {
			return filepath.SkipDir
		}
		if _, err := os.Lstat(filepath.Join(path, "task.toml")); err == nil {
			dirs = append(dirs, path)
			return filepath.SkipDir
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("import %s: %w", root, err)
	}
	return dirs, nil
}

// folderID is the id of the task dir abs: task.toml's id keys, else the
// folder's name.
func folderID(abs string, tt *TaskTOML) (string, error) {
	id := tt.ID
	if id == "" {
		id = filepath.Base(abs)
	}
	if err := taskvalue.CheckID("task id", id); err != nil {
		return "", fmt.Errorf("%s: %w", filepath.Join(abs, "task.toml"), err)
	}
	return id, nil
}

// ReadTOML reads the task.toml of the task dir dir and returns it with
// the id the task gets: every command that meets a folder (import harbor,
// validate PATH) names it the same.
func ReadTOML(dir string) (*TaskTOML, string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, "", err
	}
	data, err := readRegular(abs, "task.toml")
	if err != nil {
		return nil, "", err
	}
	tt, err := ParseTaskTOML(filepath.Join(abs, "task.toml"), data)
	if err != nil {
		return nil, "", err
	}
	id, err := folderID(abs, tt)
	return tt, id, err
}

// Options guide Read.
type Options struct {
	// Benchmark names every task's benchmark (--benchmark); when empty it
	// comes from task.toml, else from the nearest meaningful parent folder.
	Benchmark string
}

// genericDirs are parent folder names that say nothing about the benchmark.
var genericDirs = map[string]bool{"tasks": true, "task": true, "benchmarks": true, "benchmark": true, "data": true,
	"datasets": true, "dataset": true, "harbor": true, "src": true, ".": true, "/": true}

// Read reads one task directory into a task (not yet scored). Any problem
// (no instruction.md, a task.toml syntax error, a symlink leaving the dir,
// a binary instruction, an oversized file) is an error naming the file.
func Read(dir string, opt Options) (*pipeline.Task, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if err := checkTree(abs); err != nil {
		return nil, err
	}
	tomlPath := filepath.Join(abs, "task.toml")
	data, err := readRegular(abs, "task.toml")
	if err != nil {
		return nil, err
	}
	tt, err := ParseTaskTOML(tomlPath, data)
	if err != nil {
		return nil, err
	}
	instr, err := readRegular(abs, "instruction.md")
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: no instruction.md (a Harbor task needs its prompt there)", abs)
	}
	if err != nil {
		return nil, err
	}
	if len(instr) > taskvalue.MaxInstruction {
		return nil, fmt.Errorf("%s: %d bytes is over the %d MB limit of an instruction", filepath.Join(abs, "instruction.md"), len(instr), taskvalue.MaxInstruction>>20)
	}
	// NUL bytes are valid UTF-8 (a task about binary data may quote them);
	// every screen shows them as a visible placeholder.
	if off := invalidUTF8At(instr); off >= 0 {
		return nil, fmt.Errorf("%s: not UTF-8 text: invalid byte 0x%02x at byte offset %d (binary or another encoding); convert it to UTF-8",
			filepath.Join(abs, "instruction.md"), instr[off], off)
	}

	id, err := folderID(abs, tt)
	if err != nil {
		return nil, err
	}
	t := &pipeline.Task{
		ID: id, Benchmark: tt.Benchmark, Source: "harbor", SourcePath: abs, Repo: tt.Repo, Language: tt.Language,
		Category: tt.Category, BaseCommit: tt.BaseCommit, Title: tt.Title, Body: string(instr),
		Status: pipeline.StatusImported, Extra: tt.Extra,
	}
	if opt.Benchmark != "" {
		t.Benchmark = opt.Benchmark
	}
	if t.Benchmark == "" {
		t.Benchmark = benchmarkFromPath(abs)
	}
	if tt.Difficulty != "" {
		d, err := pipeline.ParseDifficulty(tt.Difficulty)
		if err != nil { // keep what the source said; the curator can label it
			t.Extra["difficulty"] = tt.Difficulty
		}
		t.DifficultyImported = d
	}
	if t.Title == "" {
		t.Title = firstLine(string(instr))
	}
	for k, v := range tt.Features {
		t.Features.Set(k, v, tt.Sources[k])
	}
	if err := readTestsConfig(abs, t); err != nil {
		return nil, err
	}
	if err := patchFeatures(abs, t, string(instr)); err != nil {
		return nil, err
	}
	if t.Digest, err = taskdir.Digest(abs); err != nil {
		return nil, err
	}
	t.TaskDir = abs
	return t, nil
}

// checkTree refuses symlinks that leave the task dir (or dangle) and files
// over MaxFileSize.
func checkTree(root string) error {
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return err
	}
	return filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.Type()&fs.ModeSymlink != 0 {
			target, err := filepath.EvalSymlinks(path)
			if err != nil {
				link, _ := os.Readlink(path)
				return fmt.Errorf("%s: symlink to %q does not resolve; refused", path, link)
			}
			if target != real && !strings.HasPrefix(target, real+string(filepath.Separator)) {
				link, _ := os.Readlink(path)
				return fmt.Errorf("%s: symlink to %q points outside the task dir; refused", path, link)
			}
			return nil
		}
		if e.Type().IsRegular() {
			fi, err := e.Info()
			if err != nil {
				return err
			}
			if fi.Size() > MaxFileSize {
				return fmt.Errorf("%s: %d bytes is over the %d MB (%d bytes) per-file limit", path, fi.Size(), MaxFileSize>>20, MaxFileSize)
			}
		}
		return nil
	})
}

// readRegular reads a file of the task dir through SafeJoin.
func readRegular(root, rel string) ([]byte, error) {
	p, err := taskdir.SafeJoin(root, rel)
	if err != nil {
		return nil, err
	}
	return os.ReadFile(p)
}

func benchmarkFromPath(abs string) string {
	for d := filepath.Dir(abs); ; d = filepath.Dir(d) {
		name := filepath.Base(d)
		if !genericDirs[strings.ToLower(name)] {
			return name
		}
		if filepath.Dir(d) == d {
			return "harbor"
		}
	}
}

// testsConfig is tests/config.json as SWE-bench Pro adapters write it.
type testsConfig struct {
	InstanceID   string `json:"instance_id"`
	Repo         string `json:"repo"`
	RepoLanguage string `json:"repo_language"`
	BaseCommit   string `json:"base_commit"`
	Patch        string `json:"patch"`
}

func readTestsConfig(root string, t *pipeline.Task) error {
	data, err := readRegular(root, "tests/config.json")
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var c testsConfig
	if err := json.Unmarshal(data, &c); err != nil {
		return fmt.Errorf("%s: %s", filepath.Join(root, "tests", "config.json"), jsonError(data, err))
	}
	if t.Repo == "" {
		t.Repo = c.Repo
	}
	if t.Language == "" && c.RepoLanguage != "" {
		t.Language = strings.ToLower(c.RepoLanguage)
		t.Extra["language_source"] = "tests/config.json repo_language"
	}
	if t.BaseCommit == "" {
		t.BaseCommit = c.BaseCommit
	}
	if c.Patch != "" {
		st := score.CountPatch(c.Patch)
		setPatch(t, st, "tests/config.json patch")
		if t.Language == "" {
			t.Language = score.LanguageFromPatch(c.Patch)
			t.Extra["language_source"] = "tests/config.json patch file extensions"
		}
	}
	return nil
}

// patchFeatures fills files_changed and loc_changed from the first source
// that has them: solution/fix.patch, tests/config.json (read before), a
// diff embedded in solution/solve.sh, instruction.md statements.
func patchFeatures(root string, t *pipeline.Task, instruction string) error {
	if data, err := readRegular(root, "solution/fix.patch"); err == nil {
		if st := score.CountPatch(string(data)); st.Files > 0 {
			setPatch(t, st, "solution/fix.patch")
			if t.Language == "" {
				t.Language = score.LanguageFromPatch(string(data))
				t.Extra["language_source"] = "solution/fix.patch file extensions"
			}
			return nil
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if src := t.Features.Sources[pipeline.FeatFilesChanged]; strings.HasSuffix(src, " patch") {
		return nil
	}
	if data, err := readRegular(root, "solution/solve.sh"); err == nil {
		if st := score.CountPatch(score.EmbeddedDiff(string(data))); st.Files > 0 {
			setPatch(t, st, "solution/solve.sh embedded diff")
			return nil
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	files, filesOK, added, removed, linesOK := score.InstructionStats(instruction)
	if filesOK {
		t.Features.Set(pipeline.FeatFilesChanged, float64(files), "instruction.md \"files modified\"")
	}
	if linesOK {
		src := "instruction.md \"additions, deletions\""
		t.Features.Set(pipeline.FeatLinesAdded, float64(added), src)
		t.Features.Set(pipeline.FeatLinesRemoved, float64(removed), src)
		t.Features.Set(pipeline.FeatLOCChanged, float64(added+removed), src)
	}
	return nil
}

func setPatch(t *pipeline.Task, st score.PatchStats, src string) {
	if st.Files == 0 {
		return
	}
	t.Features.Set(pipeline.FeatFilesChanged, float64(st.Files), src)
	t.Features.Set(pipeline.FeatLinesAdded, float64(st.Added), src)
	t.Features.Set(pipeline.FeatLinesRemoved, float64(st.Removed), src)
	t.Features.Set(pipeline.FeatLOCChanged, float64(st.LOC()), src)
}

// jsonError adds the line and column to a JSON syntax error.
func jsonError(data []byte, err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line, col := lineCol(data, se.Offset-1)
		return fmt.Sprintf("line %d, column %d: %v", line, col, err)
	}
	return err.Error()
}

func lineCol(data []byte, off int64) (int, int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(off) - bytes.LastIndexByte(before, '\n')
	return line, col
}

// invalidUTF8At is the offset of the first byte that is not valid UTF-8,
// or -1.
func invalidUTF8At(b []byte) int {
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return -1
}
