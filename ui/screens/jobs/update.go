package jobs

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"curate/app"
	"curate/pipeline"
	"curate/pipeline/source/gitmine"
	"curate/ui/components/form"
	"curate/ui/components/frame"
	"curate/ui/components/scroller"
	"curate/ui/shared"
	"curate/workspace"
)

// startForm is the form of one job kind: text fields, or a scope choice
// (build, validate).
type startForm struct {
	kind   string // import, mine, build, validate, rebuild, campaign
	labels []string
	inputs []textinput.Model
	field  int
	scope  int // build, validate: index into scopes
}

var scopes = []string{"current task", "marked tasks", "filtered set"}

func (f *startForm) scoped() bool { return f.kind == "build" || f.kind == "validate" }

func newForm(kind string, labels []string, values ...string) *startForm {
	f := &startForm{kind: kind, labels: labels}
	for i := range labels {
		in := form.NewInput()
		in.Prompt = ""
		if i < len(values) {
			in.SetValue(values[i])
			in.CursorEnd()
		}
		f.inputs = append(f.inputs, in)
	}
	if len(f.inputs) > 0 {
		f.inputs[0].Focus()
	}
	return f
}

func (f *startForm) value(i int) string { return strings.TrimSpace(f.inputs[i].Value()) }

func (s *Model) key(m tea.KeyMsg) tea.Cmd {
	k := s.ctx.Keys
	if s.confirm != nil {
		j := s.confirm
		s.confirm = nil
		if m.String() == "y" || m.String() == "Y" {
			if j.Cancel() {
				return shared.StatusCmd("cancelling "+j.Name+"…", false)
			}
			return shared.StatusCmd(j.Name+" has already ended", false)
		}
		return shared.StatusCmd("not cancelled", false)
	}
	if s.form != nil {
		return s.formKey(m)
	}
	n, rows := len(s.ctx.Long.All()), s.listRows()
	switch {
	case k.Is(m, "job_import"):
		s.form = newForm("import", []string{"Path"})
	case k.Is(m, "job_mine"):
		s.form = newForm("mine", []string{"Source", "Limit", "API URL"}, "", "0")
	case k.Is(m, "job_build"):
		s.form = s.scopeForm("build")
	case k.Is(m, "job_validate"):
		s.form = s.scopeForm("validate")
	case k.Is(m, "job_campaign"):
		s.form = campaignForm()
	case k.Is(m, "job_rebuild"):
		repo := ""
		if t := s.ctx.Catalog.Task(s.ctx.CurrentID); t != nil {
			repo = frame.CleanLine(t.Repo) // a stranger's text: no control sequences in the input
		}
		s.form = newForm("rebuild", []string{"Repository"}, repo)
	case k.Is(m, "job_cancel"):
		j := s.selected()
		switch {
		case j == nil:
			return nil
		case !j.Active():
			return shared.StatusCmd("that job has ended", true)
		}
		s.confirm = j
	case k.Is(m, "up"):
		s.list.MoveBy(-1, n, rows)
	case k.Is(m, "down"):
		s.list.MoveBy(1, n, rows)
	case k.Is(m, "page_up"):
		s.list.MoveBy(-rows, n, rows)
	case k.Is(m, "page_down"):
		s.list.MoveBy(rows, n, rows)
	case k.Is(m, "top"):
		s.list.MoveTo(0, n, rows)
	case k.Is(m, "bottom"):
		s.list.MoveTo(n-1, n, rows)
	}
	return nil
}

// scopeForm starts on the marked tasks when there are some.
func (s *Model) scopeForm(kind string) *startForm {
	f := &startForm{kind: kind}
	if len(s.ctx.Table.Marked) > 0 {
		f.scope = 1
	}
	return f
}

func (s *Model) formKey(m tea.KeyMsg) tea.Cmd {
	f := s.form
	switch m.Type {
	case tea.KeyEsc:
		s.form = nil
		return shared.Consumed
	case tea.KeyEnter:
		s.form = nil
		return s.submit(f)
	case tea.KeyTab, tea.KeyDown, tea.KeyShiftTab, tea.KeyUp:
		if len(f.inputs) > 1 {
			d := 1
			if m.Type == tea.KeyShiftTab || m.Type == tea.KeyUp {
				d = len(f.inputs) - 1
			}
			f.inputs[f.field].Blur()
			f.field = (f.field + d) % len(f.inputs)
			f.inputs[f.field].Focus()
		}
		return nil
	}
	if f.scoped() {
		switch m.String() {
		case "left", "h", "-":
			f.scope = (f.scope + len(scopes) - 1) % len(scopes)
		case "right", "l", "+", " ", "space":
			f.scope = (f.scope + 1) % len(scopes)
		}
		return nil
	}
	var cmd tea.Cmd
	f.inputs[f.field], cmd = f.inputs[f.field].Update(m)
	return cmd
}

// scopeIDs is the tasks a scope names: the current task, the marked
// ones, or the ones the Candidates filter shows.
func (s *Model) scopeIDs(scope int) []string {
	t := s.ctx.Table
	switch scope {
	case 0:
		if s.ctx.CurrentID == "" {
			return nil
		}
		return []string{s.ctx.CurrentID}
	case 1:
		return t.MarkedIDs()
	}
	return t.Filtered(s.ctx.Catalog)
}

func (s *Model) submit(f *startForm) tea.Cmd {
	switch f.kind {
	case "import":
		return s.startImport(f.value(0))
	case "mine":
		limit, err := strconv.Atoi(f.value(1))
		if f.value(1) == "" {
			limit, err = 0, nil
		}
		if err != nil || limit < 0 {
			return shared.StatusCmd(fmt.Sprintf("mine: limit %q: want 0 (all) or more", f.value(1)), true)
		}
		return s.startMine(f.value(0), limit, f.value(2))
	case "build":
		return s.startBuild(s.scopeIDs(f.scope), scopes[f.scope])
	case "validate":
		ids := s.scopeIDs(f.scope)
		if len(ids) == 0 {
			return shared.StatusCmd("validate: no "+scopes[f.scope], true)
		}
		return shared.MsgCmd(shared.StartValidationMsg{IDs: ids})
	case "rebuild":
		return s.startRebuild(f.value(0))
	case "campaign":
		return s.startCampaign(f.value(0), f.value(1), f.value(2), f.value(3))
	}
	return nil
}

// workspace is the open workspace the app functions run on.
func (s *Model) workspace(what string) (*workspace.Workspace, tea.Cmd) {
	ws := s.ctx.Services.Workspace
	if ws == nil {
		return nil, shared.StatusCmd(what+": no workspace is open", true)
	}
	return ws, nil
}

// expandHome turns a leading ~/ into the home folder, as a shell would.
func expandHome(p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	return p
}

// startImport imports path with the import its kind calls for
// (app.ImportPath), as `curate import harbor|swebench|manifest` does.
func (s *Model) startImport(path string) tea.Cmd {
	if path == "" {
		return shared.StatusCmd("import: type a path", true)
	}
	path = expandHome(path)
	kind, err := app.ImportKindOf(path)
	if err != nil {
		return shared.StatusCmd(err.Error(), true)
	}
	ws, bad := s.workspace("import")
	if bad != nil {
		return bad
	}
	return s.start("import", path, true, func(ctx context.Context, progress app.ProgressFunc) (string, error) {
		sum, err := app.ImportPath(ctx, ws, path, app.ImportOptions{Progress: progress})
		if err != nil {
			return "", err
		}
		return importLine(kind, sum), nil
	})
}

func importLine(kind string, sum *app.ImportSummary) string {
	if !sum.Written {
		return fmt.Sprintf("nothing written (%s): %d failed", kind, len(sum.Failed))
	}
	line := fmt.Sprintf("imported %d new task(s) (%s), %d updated, %d unchanged", len(sum.Imported), kind, len(sum.Updated), len(sum.Unchanged))
	if len(sum.Failed) > 0 {
		line += fmt.Sprintf(", %d failed (first: %s: %s)", len(sum.Failed), filepath.Base(sum.Failed[0].Source), sum.Failed[0].Reason)
	}
	return line
}

// startMine mines a local clone (app.MineGit) or a GitHub repository
// (app.MineGitHub), as `curate mine git|github` does.
func (s *Model) startMine(src string, limit int, apiURL string) tea.Cmd {
	if src == "" {
		return shared.StatusCmd("mine: type a clone's path or OWNER/REPO", true)
	}
	src = expandHome(src)
	local, err := app.MineSource(src)
	if err != nil {
		return shared.StatusCmd(err.Error(), true)
	}
	ws, bad := s.workspace("mine")
	if bad != nil {
		return bad
	}
	if local {
		path, err := filepath.Abs(src)
		if err != nil {
			return shared.StatusCmd("mine: "+err.Error(), true)
		}
		return s.start("mine", path, true, func(ctx context.Context, progress app.ProgressFunc) (string, error) {
			res, err := app.MineGit(ctx, ws, gitmine.Options{Path: path, Limit: limit}, app.MineOptions{Progress: progress})
			if err != nil {
				return "", err
			}
			return minedLine(res.Tasks, filepath.Base(path), fmt.Sprintf("%d unreadable commit(s) skipped", len(res.Skipped))), nil
		})
	}
	return s.start("mine", src, true, func(ctx context.Context, progress app.ProgressFunc) (string, error) {
		// GitHub's notes (rate-limit waits, resuming) show as the last item.
		var mu sync.Mutex
		var last app.Progress
		track := func(p app.Progress) {
			mu.Lock()
			last = p
			mu.Unlock()
			progress(p)
		}
		notify := func(msg string) {
			mu.Lock()
			p := last
			mu.Unlock()
			p.Item = msg
			progress(p)
		}
		res, err := app.MineGitHub(ctx, ws, app.GitHubMine{MineOptions: app.MineOptions{Progress: track}, Repo: src, APIURL: apiURL, Limit: limit, Notify: notify})
		if err != nil {
			return "", err
		}
		return minedLine(res.Tasks, src, fmt.Sprintf("%d skipped (mined before)", res.Skipped)), nil
	})
}

// minedLine: "mined 13 candidates from acme/calc, 2 rejected, 0 skipped".
func minedLine(tasks []*pipeline.Task, from, skipped string) string {
	ok := 0
	for _, t := range tasks {
		if t.Status != pipeline.StatusRejected {
			ok++
		}
	}
	if len(tasks) > 0 && tasks[0].Repo != "" {
		from = tasks[0].Repo
	}
	return fmt.Sprintf("mined %d candidate(s) from %s, %d rejected, %s", ok, from, len(tasks)-ok, skipped)
}

// startBuild builds ids (app.Build), as `curate build ID...` does.
func (s *Model) startBuild(ids []string, scope string) tea.Cmd {
	if len(ids) == 0 {
		return shared.StatusCmd("build: no "+scope, true)
	}
	ws, bad := s.workspace("build")
	if bad != nil {
		return bad
	}
	what := ids[0]
	if len(ids) > 1 {
		what = fmt.Sprintf("%d tasks (%s)", len(ids), scope)
	}
	return s.start("build", what, true, func(ctx context.Context, progress app.ProgressFunc) (string, error) {
		progress(app.Progress{Stage: "build", Total: len(ids)})
		results, err := app.Build(ctx, ws, app.BuildOptions{IDs: ids, Progress: progress})
		return buildLine(results), err
	})
}

// buildLine: "built 10 of 12 task(s), 1 rejected, 1 error(s) (first:
// the first rejection's or error's reason)".
func buildLine(results []app.BuildResult) string {
	built, rejected, failed := 0, 0, 0
	first := ""
	for _, r := range results {
		switch r.Status {
		case string(pipeline.StatusBuilt):
			built++
		case string(pipeline.StatusRejected):
			rejected++
			if first == "" && len(r.Reasons) > 0 {
				first = r.ID + ": " + r.Reasons[len(r.Reasons)-1]
			}
		default:
			failed++
			if first == "" {
				first = r.ID + ": " + r.Error
			}
		}
	}
	line := fmt.Sprintf("built %d of %d task(s), %d rejected, %d error(s)", built, len(results), rejected, failed)
	if first != "" {
		line += " (first: " + first + ")"
	}
	return line
}

// startRebuild runs the repos operation's rebuild of repo
// (Services.RebuildRepo) once the Docker engines have been asked whether
// they answer, in a command (enginesChecked), as a validation does.
func (s *Model) startRebuild(repo string) tea.Cmd {
	if repo == "" {
		return shared.StatusCmd("rebuild: type OWNER/REPO", true)
	}
	if s.ctx.Services.RebuildRepo == nil {
		return shared.StatusCmd("rebuild: not available in this build (needs the repos operation)", true)
	}
	check := s.ctx.Services.CheckEngines
	if check == nil {
		return s.rebuild(repo, nil)
	}
	return func() tea.Msg { return enginesCheckedMsg{repo: repo, report: check(context.Background())} }
}

// enginesChecked starts the rebuild the check was for, unless no engine
// answers: then the status bar says which and nothing starts.
func (s *Model) enginesChecked(m enginesCheckedMsg) tea.Cmd {
	state := shared.MsgCmd(shared.EnginesMsg{Report: m.report, Quiet: true})
	if m.report.AllDown() {
		return tea.Batch(state, shared.EngineProblemCmd(m.report))
	}
	return tea.Batch(state, s.rebuild(m.repo, m.report))
}

// rebuild starts the job; the engine check's problem line (some engines
// down), when there is one, replaces the start line.
func (s *Model) rebuild(repo string, engines app.EngineReport) tea.Cmd {
	f := s.ctx.Services.RebuildRepo
	return s.startSaying("rebuild", repo, true, func(ctx context.Context, progress app.ProgressFunc) (string, error) {
		return f(ctx, repo, progress)
	}, shared.EngineProblemCmd(engines))
}

// listRows is how many jobs fit: two lines each under a title and header.
func (s *Model) listRows() int { return max((s.h-4)/2, 1) }

// ensure the cursor stays in range after jobs come and go.
func (s *Model) clamp() {
	n := len(s.ctx.Long.All())
	if s.list.Cursor >= n {
		s.list.MoveTo(n-1, n, s.listRows())
	}
	if n == 0 {
		s.list = scroller.Model{}
	}
}
