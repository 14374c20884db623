package shared

import (
	"context"

	"curate/app"
	"curate/pipeline"
	"curate/pipeline/export"
	"curate/pipeline/selection"
	"curate/pipeline/validate"
	"curate/workspace"
)

// JobServices are what the jobs list (J) starts. Import, mine and build
// call the app functions on Workspace directly (the CLI's own); the
// repos operation plugs in RebuildRepo.
type JobServices struct {
	// Workspace is the open workspace (nil: no import, mine or build).
	Workspace *workspace.Workspace
	// RebuildRepo rebuilds a repository's changed tasks and reruns its
	// failures (nil: the job says it is not available).
	RebuildRepo app.RebuildRepoFunc
	// Campaign takes clones to validated tasks as `curate campaign` does
	// (nil: the job says it is not available).
	Campaign app.CampaignFunc
}

// Services are the engines the Runs, Quotas and Export screens drive. The
// binary wires them to the same code the CLI commands run (curate
// validate, select, export); tests wire doubles where an engine is not the
// subject. A nil function disables what needs it, with a message.
type Services struct {
	// Validate runs validation jobs on the workspace's engines: the
	// function behind curate validate (app.Validate).
	Validate func(ctx context.Context, jobs []validate.Job, o app.ValidateOptions) ([]*pipeline.Run, error)
	// Cancel asks the curate process running a run to stop it, as `curate
	// runs cancel` does.
	Cancel func(runID string) error
	// Concurrency is the [docker] default of a validation.
	Concurrency int
	// CheckEngines asks the engines a validation would use whether they
	// answer (app.CheckEngines); nil: no check.
	CheckEngines func(ctx context.Context) app.EngineReport

	// Selection is the profile's [selection] and curate.toml's overrides.
	Selection func() (profile selection.Config, overrides workspace.SelectionConfig, err error)
	// SaveSelection writes [selection] budget and quotas to curate.toml.
	SaveSelection func(budget *int, quotas []pipeline.Quota) error
	// ExportInput builds the export of a solve, as `curate export` does for
	// a saved selection named name.
	ExportInput func(ctx context.Context, name string, cfg selection.Config, res *selection.Result, format string) (*export.Input, error)
	// Export writes the solve, named name, in req's formats as `curate
	// export` does (app.Export): each format written or its reason given;
	// the solve is stored as a selection only when a format was written.
	Export func(ctx context.Context, name string, cfg selection.Config, res *selection.Result, req app.ExportRequest) (*app.ExportOutcome, error)

	JobServices
	// Repos screen (app/repo.go): curate.toml's [repos] profiles, an edit of
	// one in $EDITOR (curate repo edit), and a rebuild that returns the
	// tasks to rerun (curate rebuild --repo, validate --repo --failed).
	RepoConfigs func() map[string]workspace.RepoConfig
	// RepoState reads a repo's recorded snapshot and env check (file I/O:
	// call it from a job, never from View).
	RepoState          func(repo string) (*app.RepoState, error)
	EditRepoProfile    func(ctx context.Context, repo string) (*app.ProfileEdit, error)
	RebuildRepoTargets func(ctx context.Context, repo string) (*app.RebuildResult, []*pipeline.Task, error)
	// AcceptEnvFailures takes a repo's failed env check's failing tests as
	// known failures (curate env accept).
	AcceptEnvFailures func(repo string) (*app.RepoState, error)
}
