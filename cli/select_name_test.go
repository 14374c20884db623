package cli

import (
	"strings"
	"testing"
)

// --name is --selection's alias on select: listed in its help, used as
// given, and refused beside --selection rather than one silently winning.
func TestSelectNameAliasOfSelection(t *testing.T) {
	root := demoWorkspace(t)
	help, _, _ := cliIn(t, root, "select", "--help")
	if !strings.Contains(help, "--name") || !strings.Contains(help, "alias of --selection") {
		t.Errorf("select --help does not list --name:\n%s", help)
	}
	if _, errs, code := cliIn(t, root, "select", "--budget", "3", "--name", "byname"); code != 0 {
		t.Fatalf("--name: exit %d: %s", code, errs)
	}
	out, _, _ := cliIn(t, root, "select", "list")
	if !strings.Contains(out, "byname") {
		t.Errorf("--name did not name the selection:\n%s", out)
	}
	_, errs, code := cliIn(t, root, "select", "--budget", "3", "--name", "a", "--selection", "b")
	if code == 0 || strings.TrimSpace(errs) != "curate: --name and --selection are the same flag; give one" {
		t.Errorf("both given: exit %d: %q", code, errs)
	}
	out, _, _ = cliIn(t, root, "select", "list")
	if strings.Contains(out, "\na ") || strings.Contains(out, "\nb ") {
		t.Errorf("a refused select saved something:\n%s", out)
	}
}

// select --filter keeps the solver to the matching tasks, and refuses a
// filter that matches none (the export refusal's advice runs as printed).
func TestSelectFilter(t *testing.T) {
	root := demoWorkspace(t)
	out, errs, code := cliIn(t, root, "select", "--budget", "2", "--filter", "repo=acme/calc", "--selection", "calc", "--allow-infeasible", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if strings.Count(out, `"task_id"`) == 0 || strings.Count(out, `"task_id": "acme__calc`) != strings.Count(out, `"task_id"`) {
		t.Errorf("a task outside the filter was selected:\n%s", out)
	}
	_, errs, code = cliIn(t, root, "select", "--filter", "status=valid")
	if code != 1 || !strings.Contains(errs, `no task matches "status=valid"`) {
		t.Errorf("empty match: exit %d: %s", code, errs)
	}
}
