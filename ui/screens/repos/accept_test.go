package repos

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"curate/app"
	"curate/ui/shared"
	"curate/ui/uitest"
	"curate/workspace"
)

// TestReposAcceptEnvFailures: a repo whose env check failed shows its
// failing tests with their first error line and the key that accepts
// them; the key records the acceptance (as curate env accept does) and
// the detail then reads "accepted as known failures".
func TestReposAcceptEnvFailures(t *testing.T) {
	ws := uitest.Workspace(t)
	tasks, _ := fixture()
	if err := ws.Store.UpsertTasks(context.Background(), tasks); err != nil {
		t.Fatal(err)
	}
	const snap = "97f5823b0000000000000000000000000000beef"
	state, _ := json.Marshal(map[string]any{"repo": "pallets/click", "snapshot": snap, "env_check": map[string]any{
		"snapshot": snap, "passed": 6, "total": 9, "ok": false, "at": "2026-11-29T06:00:00Z", "failed": 3,
		"failing": []map[string]string{
			{"test": "tests/test_env.py::test_needs_network", "error": "socket.gaierror: [Errno -3] Temporary failure in name resolution"},
			{"test": "tests/test_env.py::test_needs_network_too"},
			{"test": "tests/test_percent.py::test_percent_locale", "error": "TypeError: fmt_percent() got an unexpected keyword argument 'locale'"},
		}}})
	dir := filepath.Join(ws.Root, workspace.StateDir, "repos")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pallets+click.json"), state, 0o644); err != nil {
		t.Fatal(err)
	}
	c := uitest.Context(t, "dark", nil)
	c.Root, c.Store, c.Active = ws.Root, ws.Store, shared.TabRepos
	c.Catalog = shared.NewCatalog(tasks, nil)
	c.Services.RepoState = func(repo string) (*app.RepoState, error) { return app.RepoStateOf(ws, repo) }
	c.Services.AcceptEnvFailures = func(repo string) (*app.RepoState, error) { return app.AcceptEnvFailures(ws, repo) }
	s := New(c)
	x := uitest.NewHost(t, c, shared.TabRepos, s, 120, 40)
	x.Run(t, shared.MsgCmd(shared.ResizedMsg{}))
	for i := 0; i < len(s.repos) && s.selected().name != "pallets/click"; i++ {
		x.Press(t, "down")
	}
	v := uitest.Plain(s.View())
	for _, want := range []string{"env check failed 6/9", "FAIL tests/test_env.py::test_needs_network: socket.gaierror", "a accepts them as known failures"} {
		if !strings.Contains(v, want) {
			t.Fatalf("the detail lacks %q:\n%s", want, v)
		}
	}
	x.Press(t, "a")
	if x.StatusErr || !strings.Contains(x.Status, "accepted as known failures") {
		t.Fatalf("status after a: %q (error %v)", x.Status, x.StatusErr)
	}
	v = uitest.Plain(s.View())
	if !strings.Contains(v, "3 failing accepted as known failures") || strings.Contains(v, "a accepts them") {
		t.Errorf("the detail after a:\n%s", v)
	}
	if st, _ := app.RepoStateOf(ws, "pallets/click"); !st.EnvCheck.FailuresAccepted {
		t.Error("the acceptance was not recorded")
	}
}
