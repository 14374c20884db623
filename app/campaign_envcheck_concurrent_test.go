package app

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"curate/internal/fixtures"
	"curate/pipeline/validate"
	"curate/workspace"
)

// meetingEngine is an engine whose repository image builds wait until
// two are under way at once (or a few seconds pass), then fail: it counts
// how many checks the campaign runs at once, and nothing else.
type meetingEngine struct {
	mu             sync.Mutex
	inFlight, most int
	met            chan struct{}
}

func (m *meetingEngine) RepoImage(ctx context.Context, envDir string, out io.Writer) (string, error) {
	m.mu.Lock()
	m.inFlight++
	m.most = max(m.most, m.inFlight)
	if m.inFlight == 2 {
		close(m.met)
	}
	m.mu.Unlock()
	select {
	case <-m.met:
	case <-time.After(5 * time.Second):
	case <-ctx.Done():
	}
	m.mu.Lock()
	m.inFlight--
	m.mu.Unlock()
	return "", errors.New("the meeting engine builds no image")
}

func (m *meetingEngine) Host() string { return "meeting" }

func (m *meetingEngine) Image(context.Context, string, io.Writer) (string, bool, error) {
	return "", false, errors.New("the meeting engine builds no image")
}

func (m *meetingEngine) Exec(context.Context, validate.ExecSpec, validate.Output) (*validate.ExecResult, error) {
	return nil, errors.New("the meeting engine runs nothing")
}

// A campaign checks several repositories' environments at once, up to its
// concurrency (found on the cluster: a campaign over fourteen repositories
// with --concurrency 2 checked them one at a time, one pod in the
// namespace for most of an hour while the second slot stood idle, and no
// validation could start before the last check ended).
func TestCampaignChecksEnvironmentsAtOnce(t *testing.T) {
	engine := &meetingEngine{met: make(chan struct{})}
	RegisterEngine("meeting", func(context.Context, *workspace.Workspace, io.Writer) (*OpenedEngine, error) {
		return &OpenedEngine{Runners: []validate.Runner{engine}, Concurrency: 2, Close: func() {}}, nil
	})
	ws := openTestWorkspace(t)
	py, err := fixtures.PythonRepo(filepath.Join(t.TempDir(), "calc"))
	if err != nil {
		t.Fatal(err)
	}
	gr, err := fixtures.GoRepo(filepath.Join(t.TempDir(), "mathx"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	checked := map[string]string{}
	_, err = RunCampaign(ctx, ws, CampaignOptions{Clones: []string{py.Path, gr.Path}, Preset: "none",
		Validate: ValidateOptions{Engine: "meeting", Concurrency: 2},
		Event: func(e CampaignEvent) {
			if e.Step == "env_check" && !e.Waiting {
				checked[e.Repo] = e.Detail
			}
			if e.Step == "build" {
				cancel() // the checks are what this test is about
			}
		}})
	if err != nil && !errors.Is(err, context.Canceled) {
		t.Fatalf("campaign: %v", err)
	}
	if engine.most != 2 {
		t.Errorf("%d environment check(s) at once with --concurrency 2 over two repositories, want 2", engine.most)
	}
	for _, repo := range []string{py.Repo, gr.Repo} {
		if checked[repo] == "" {
			t.Errorf("no env_check end for %s (events %v)", repo, checked)
		}
	}
}

// The first check that cannot run stops the others, and its error is the
// one returned, not the cancel it caused in the checks beside it.
func TestCheckConcurrentlyReturnsTheCause(t *testing.T) {
	cause := errors.New("the store is gone")
	var started []string
	var mu sync.Mutex
	states, err := checkConcurrently(context.Background(), []string{"a/fails", "b/waits", "c/never"}, 2, func(ctx context.Context, repo string) (*RepoState, error) {
		mu.Lock()
		started = append(started, repo)
		mu.Unlock()
		if repo == "a/fails" {
			return nil, cause
		}
		<-ctx.Done()
		return nil, ctx.Err()
	})
	if !errors.Is(err, cause) || len(states) != 0 {
		t.Errorf("states %v, error %v; want none and %v", states, err, cause)
	}
	for _, r := range started {
		if r == "c/never" {
			t.Errorf("a check started after the first failed: %v", started)
		}
	}
}
