package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

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
// `curate build --accepted`.
func demoBuild(ctx context.Context, app *App, ws *workspace.Workspace) error {
	if err := setDemoBaseImage(ws); err != nil {
		return err
	}
	fc, fopt, err := mineFilter(ws, mineFlags{})
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
	cfg := envgen.Config{DockerBase: ws.Config.Docker.BaseImage, LanguageImages: ws.Config.Docker.LanguageImages, Repos: ws.Config.Repos, Filter: fc}
	built := 0
	for _, p := range []fixtures.Project{py, gr} {
		prs, err := gitmine.Mine(ctx, gitmine.Options{Path: p.Path})
		if err != nil {
			return err
		}
		tasks, err := saveCandidates(ctx, ws, prs, fc, fopt, "git", p.Path)
		if err != nil {
			return err
		}
		for _, t := range tasks {
			if t.Status != pipeline.StatusCandidate {
				continue
			}
			res, err := envgen.Build(ctx, t, ws.TasksPath(), cfg)
			if err != nil {
				return fmt.Errorf("build %s: %w", t.ID, err)
			}
			t.Status, t.TaskDir, t.Digest, t.Language = pipeline.StatusBuilt, res.Dir, res.Digest, res.Language
			if err := scoreWith(ws, t); err != nil {
				return err
			}
			if err := ws.Store.UpsertTasks(ctx, []*pipeline.Task{t}); err != nil {
				return err
			}
			built++
		}
	}
	fmt.Fprintf(app.Out, "Demo: built %d tasks from fixture repositories in %s (FROM %s; run `curate env bootstrap` to make it)\n", built, repos, DemoBaseImage)
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
