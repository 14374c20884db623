package app

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"curate/internal/demodata"
	"curate/internal/fixtures"
	"curate/pipeline"
	"curate/pipeline/envgen"
	"curate/pipeline/source/gitmine"
	"curate/workspace"
)

// DemoBaseImage is what `curate env bootstrap` builds without a registry;
// the demo's task Dockerfiles start from it.
const DemoBaseImage = "curate/base:bookworm"

// demoBuild makes two small fixture repositories (Python and Go) inside
// the demo workspace, mines their merged PRs and builds every accepted
// one into tasks/, as a curator would with `curate mine git` and
// `curate build --candidates`.
func demoBuild(ctx context.Context, out io.Writer, ws *workspace.Workspace) error {
	if err := setDemoBaseImage(ws); err != nil {
		return err
	}
	fc, fopt, err := MineFilter(ws, MineOptions{})
	if err != nil {
		return err
	}
	repos := filepath.Join(ws.Root, "fixture-repos")
	py, err := fixtures.PythonRepo(filepath.Join(repos, "calc"))
	if err != nil {
		return err
	}
	gr, err := fixtures.GoRepo(filepath.Join(repos, "mathx"))
	if err != nil {
		return err
	}
	cfg := buildConfig(ctx, ws, fc)
	built := 0
	for _, p := range []fixtures.Project{py, gr} {
		timer := startProcessTimer()
		prs, err := gitmine.Mine(ctx, gitmine.Options{Path: p.Path})
		if err != nil {
			return err
		}
		tasks, err := SaveCandidates(ctx, ws, prs, fc, fopt, "git", p.Path)
		if err != nil {
			return err
		}
		if len(prs) > 0 {
			if err := timer.save(ctx, ws, pipeline.TimeMine, prs[0].Repo); err != nil {
				return err
			}
		}
		for _, t := range tasks {
			if t.Status != pipeline.StatusCandidate {
				continue
			}
			r, err := buildOne(ctx, ws, t, cfg)
			if err != nil {
				return err
			}
			if r.Status != string(pipeline.StatusBuilt) {
				return fmt.Errorf("build %s: %s%s", t.ID, r.Error, strings.Join(r.Reasons, "; "))
			}
			built++
		}
	}
	fmt.Fprintf(out, "Demo: built %d tasks from fixture repositories in %s (FROM %s; run `curate env bootstrap` to make it)\n", built, repos, DemoBaseImage)
	return nil
}

// setDemoBaseImage points the demo's [docker] base_image at DemoBaseImage.
func setDemoBaseImage(ws *workspace.Workspace) error {
	data, err := os.ReadFile(ws.ConfigPath())
	if err != nil {
		return err
	}
	text := string(data)
	old := fmt.Sprintf("base_image = %q", envgen.DefaultBaseImage)
	if !strings.Contains(text, old) {
		return nil // someone else already set it
	}
	text = strings.Replace(text, old, fmt.Sprintf("base_image = %q", DemoBaseImage), 1)
	if err := os.WriteFile(ws.ConfigPath(), []byte(text), 0o644); err != nil {
		return err
	}
	ws.Config.Docker.BaseImage = DemoBaseImage
	return nil
}

// demoDirUsable refuses a folder that holds files of someone else's: the
// demo writes curate.toml, tasks/ and fixture repositories into it. A new
// or empty folder, or a workspace, is fine.
func demoDirUsable(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) == 0 {
		return nil // missing (made next) or empty
	}
	if _, err := os.Stat(filepath.Join(dir, workspace.ConfigFile)); err == nil {
		return nil
	}
	return fmt.Errorf("demo: %s is not empty and not a curate workspace (%d entries, e.g. %s): pick a new folder, e.g. curate demo --dir %s", dir, len(entries), entries[0].Name(), filepath.Join(dir, "curate-demo"))
}

// MakeDemo creates and fills a demo workspace in dir (a temp dir when
// empty) and returns its root; progress goes to out.
func MakeDemo(ctx context.Context, out io.Writer, dir string) (string, error) {
	if dir == "" {
		tmp, err := os.MkdirTemp("", "curate-demo-")
		if err != nil {
			return "", fmt.Errorf("demo: %w", err)
		}
		dir = tmp
	}
	if err := demoDirUsable(dir); err != nil {
		return "", err
	}
	// The demo's catalogue is CodeContextBench's benchmarks, which the ccb
	// preset's per-benchmark strategies select from; swe would only fill
	// its budget by score.
	root, err := workspace.InitProfile(dir, "ccb")
	if err != nil {
		return "", fmt.Errorf("demo: %w", err)
	}
	ws, err := workspace.Open(ctx, root)
	if err != nil {
		return "", err
	}
	defer ws.Close()
	tasks, err := demodata.Catalog()
	if err != nil {
		return "", fmt.Errorf("demo: %w", err)
	}
	scorer, _, err := LoadScorer(ws, "") // phase, MCP score, difficulty from the profile
	if err != nil {
		return "", fmt.Errorf("demo: %w", err)
	}
	Rescore(scorer, tasks)
	if err := ws.Store.UpsertTasks(ctx, tasks); err != nil {
		return "", fmt.Errorf("demo: %w", err)
	}
	fmt.Fprintf(out, "Demo workspace %s: %d catalogue tasks\n", root, len(tasks))
	if err := demoBuild(ctx, out, ws); err != nil {
		return "", fmt.Errorf("demo: %w", err)
	}
	return root, nil
}
