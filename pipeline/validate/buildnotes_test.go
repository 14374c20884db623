package validate

import (
	"context"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"curate/pipeline"
)

// TestBuildNotesScript runs what a container prints of the image build's
// notes: each "curate: note: " line after BuildNotePrefix, other lines
// not, and nothing when the image has no notes file.
func TestBuildNotesScript(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "build-notes")
	script := strings.ReplaceAll(buildNotesScript, pipeline.BuildNotesFile, file)
	out, err := exec.Command("sh", "-c", script).CombinedOutput()
	if err != nil || len(out) != 0 {
		t.Fatalf("no notes file: err %v, output %q", err, out)
	}
	writeFile(t, file, "curate: note: a 1.2.4 in place of 1.2.3\nnoise\ncurate: note: scripts left out\n")
	out, err = exec.Command("sh", "-c", script).CombinedOutput()
	want := pipeline.BuildNotePrefix + "a 1.2.4 in place of 1.2.3\n" + pipeline.BuildNotePrefix + "scripts left out\n"
	if err != nil || string(out) != want {
		t.Fatalf("err %v, output %q, want %q", err, out, want)
	}
}

type notesStore struct {
	tasks map[string]*pipeline.Task
	runs  map[string][]*pipeline.Run
}

func (s *notesStore) Task(_ context.Context, id string) (*pipeline.Task, error) {
	return s.tasks[id], nil
}
func (s *notesStore) Runs(_ context.Context, id string) ([]*pipeline.Run, error) {
	return s.runs[id], nil
}
func (s *notesStore) UpsertTasks(_ context.Context, tasks []*pipeline.Task) error {
	for _, t := range tasks {
		s.tasks[t.ID] = t
	}
	return nil
}

// TestRecordBuildNotes: the notes a run on the task's files printed are
// kept on the task (each once); a later run that printed none (its image
// was built before, or the run ended before the container) keeps them.
func TestRecordBuildNotes(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "r1.log")
	writeFile(t, log, "Step 26/29 : RUN curate-step ...\ncurate: note: echoed by the build\n"+
		pipeline.BuildNotePrefix+"top 1.1.222 in place of 1.1.225\n"+pipeline.BuildNotePrefix+"top 1.1.222 in place of 1.1.225\n"+
		pipeline.BuildNotePrefix+"scripts left out\ncurate: verifier: bash /tests/test.sh\n")
	empty := filepath.Join(dir, "r2.log")
	writeFile(t, empty, "curate: verifier: bash /tests/test.sh\n")
	st := &notesStore{tasks: map[string]*pipeline.Task{"a": {ID: "a", Digest: "d1", TaskDir: dir}}, runs: map[string][]*pipeline.Run{}}
	reward := 0.0
	run := func(id, logPath string) *pipeline.Run {
		return &pipeline.Run{ID: id, TaskID: "a", Mode: string(ModeNop), Outcome: pipeline.OutcomeOK, Reward: &reward, Digest: "d1", LogPath: logPath}
	}
	if err := RecordResults(context.Background(), st, dir, []*pipeline.Run{run("r1", log)}); err != nil {
		t.Fatal(err)
	}
	want := []string{"top 1.1.222 in place of 1.1.225", "scripts left out"}
	if got := pipeline.BuildNotes(st.tasks["a"]); !reflect.DeepEqual(got, want) {
		t.Fatalf("build notes %q, want %q", got, want)
	}
	if err := RecordResults(context.Background(), st, dir, []*pipeline.Run{run("r2", empty)}); err != nil {
		t.Fatal(err)
	}
	if got := pipeline.BuildNotes(st.tasks["a"]); !reflect.DeepEqual(got, want) {
		t.Fatalf("after a run without notes: %q, want %q", got, want)
	}
}
