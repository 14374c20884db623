package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"curate/internal/testenv"
	"curate/pipeline"
	"curate/workspace"
)

// The workbench at 80x24, 100x30 and 160x50 in a real terminal: the tab
// bar keeps its help hint, and the Runs screen shows a finished run's log
// as its tests, with the raw log one key (T) away.
func TestWorkbenchSizesInTmux(t *testing.T) {
	testenv.RequireCommand(t, "tmux")
	bin, demo := buildDemo(t)
	ws, err := workspace.Open(context.Background(), demo)
	if err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(demo, ".curate", "runs", "r-sizes-1.log")
	os.MkdirAll(filepath.Dir(log), 0o755)
	os.WriteFile(log, []byte(`curate: gold acme__mathx-1
{"Action":"run","Package":"example.com/mathx","Test":"TestAdd"}
{"Action":"pass","Package":"example.com/mathx","Test":"TestAdd","Elapsed":0.01}
{"Action":"output","Package":"example.com/mathx","Test":"TestDiv","Output":"RAW-OUTPUT-LINE\n"}
{"Action":"fail","Package":"example.com/mathx","Test":"TestDiv","Elapsed":1.25}
`), 0o644)
	zero := 0.0
	now := time.Now().UTC()
	if err := ws.Store.SaveRun(context.Background(), &pipeline.Run{ID: "r-sizes-1", TaskID: "acme__mathx-1", Mode: "nop", Outcome: pipeline.OutcomeOK,
		Reward: &zero, LogPath: log, StartedAt: now, FinishedAt: now.Add(time.Second)}); err != nil {
		t.Fatal(err)
	}
	ws.Close()
	for _, size := range [][2]int{{80, 24}, {100, 30}, {160, 50}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			tp := startTmux(t, bin+" --workspace "+demo, "USER=tmux-curator")
			tp.tm("resize-window", "-t", "0", "-x", fmt.Sprint(size[0]), "-y", fmt.Sprint(size[1]))
			tp.wait("start", 15*time.Second, "Candidates]", "314/314")
			for _, screen := range []string{"F1", "F4", "F7"} {
				tp.keys(screen)
				time.Sleep(300 * time.Millisecond) // no text to wait for: the hint is what is checked
				bar := strings.TrimRight(strings.SplitN(tp.screen(), "\n", 2)[0], " ")
				if !strings.HasSuffix(bar, "? help  : commands") && !strings.HasSuffix(bar, "? help") && !strings.HasSuffix(bar, "?") {
					t.Errorf("%s: no help hint on the tab bar %q", screen, bar)
				}
			}
			tp.keys("F4")
			p := tp.wait("test list", 15*time.Second, "r-sizes-1", "FAILED", "1.25s", "TestDiv", "PASSED")
			if strings.Contains(p, `"Action":"output"`) {
				t.Errorf("the raw log shows under the test list:\n%s", p)
			}
			tp.keys("T")
			tp.wait("raw log", 15*time.Second, `"Action":"output"`)
			tp.keys("q")
			tp.waitExit(15 * time.Second)
		})
	}
}
