package cli

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "modernc.org/sqlite"
)

// A lost index (an empty curate.db, another program's SQLite file) is
// refused with one line that says how to rebuild it, and
// `curate init --reindex` rebuilds it from tasks/.
func TestLostIndexIsRefusedAndRebuilt(t *testing.T) {
	for name, spoil := range map[string]func(t *testing.T, db string){
		"empty": func(t *testing.T, db string) {
			if err := os.WriteFile(db, nil, 0o644); err != nil {
				t.Fatal(err)
			}
		},
		"foreign": func(t *testing.T, db string) {
			os.Remove(db)
			other, err := sql.Open("sqlite", "file:"+db)
			if err != nil {
				t.Fatal(err)
			}
			defer other.Close()
			if _, err := other.Exec("CREATE TABLE photos (id INTEGER PRIMARY KEY, path TEXT)"); err != nil {
				t.Fatal(err)
			}
		},
	} {
		t.Run(name, func(t *testing.T) {
			ws := newWorkspace(t)
			if code, _, e := cli(t, "-w", ws, "import", "harbor", filepath.Join("..", "testdata", "import", "harbor", "ccb_pytorch")); code != 0 {
				t.Fatal(e)
			}
			want := countTasks(t, ws)
			if want == 0 {
				t.Fatal("nothing imported")
			}
			db := filepath.Join(ws, ".curate", "curate.db")
			os.Remove(db + "-wal")
			os.Remove(db + "-shm")
			spoil(t, db)
			code, out, errOut := cli(t, "-w", ws, "list")
			if code == 0 || strings.Count(strings.TrimSpace(errOut), "\n") != 0 || !strings.Contains(errOut, "curate init --reindex "+ws) {
				t.Fatalf("list on a lost index: exit %d, stdout %q, stderr %q: want one line naming curate init --reindex", code, out, errOut)
			}
			code, out, errOut = cli(t, "init", "--reindex", ws)
			if code != 0 || !strings.Contains(out, "unreadable") {
				t.Fatalf("init --reindex: exit %d %s %s", code, out, errOut)
			}
			if got := countTasks(t, ws); got != want {
				t.Errorf("rebuilt index holds %d tasks, want %d", got, want)
			}
			if code, _, errOut := cli(t, "init", "--reindex", ws); code == 0 || !strings.Contains(errOut, "only replaces an index curate cannot read") {
				t.Errorf("reindex of a good index: exit %d %s", code, errOut)
			}
		})
	}
}
