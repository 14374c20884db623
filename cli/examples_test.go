package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// exampleNeeds are the commands whose examples need what a test cannot
// give them here: Docker, the network, a terminal, a clone, an editor;
// their own tests run them.
var exampleNeeds = map[string]string{
	"curate validate": "Docker", "curate env": "Docker", "curate env bootstrap": "Docker and the network",
	"curate env prune": "Docker", "curate env check": "Docker", "curate env accept": "a repository whose env check (Docker) failed", "curate campaign": "clones and Docker", "curate mine": "a clone", "curate mine git": "a clone",
	"curate mine github": "the network", "curate demo": "a terminal", "curate tui": "a terminal", "curate": "a terminal",
	"curate import": "source files", "curate import harbor": "source files", "curate import swebench": "source files",
	"curate import manifest": "source files", "curate runs cancel": "a running validation", "curate repo edit": "an editor",
	"curate export": "a validated selection (cmd_select_test.go exports)", "curate init": "a new folder",
	"curate runs": "a validation run", "curate runs show": "a validation run", "curate env push": "a Kubernetes cluster's registry", "curate env buildkit install": "a Kubernetes cluster", "curate edit": "an editor and a validated task (cmd_edit_test.go edits one)",
}

// Every command's Example runs as printed in the demo workspace, in the
// order the command tree lists them (a selection an example saves is there
// for the next): a line with a pipe, a shell operator or `# not run`
// is left out, and a command that needs Docker, the network or a terminal
// is listed in exampleNeeds. Builds and rebuilds run with --dry-run.
func TestHelpExamplesRun(t *testing.T) {
	root := demoWorkspace(t)
	home := t.TempDir()
	t.Setenv("HOME", home)
	var walk func(c *cobra.Command)
	ran := 0
	walk = func(c *cobra.Command) {
		defer func() { // then the subcommands': select's make what select diff compares
			for _, sub := range c.Commands() {
				walk(sub)
			}
		}()
		if _, skip := exampleNeeds[c.CommandPath()]; skip || c.Example == "" {
			return
		}
		for _, line := range strings.Split(c.Example, "\n") {
			line = strings.TrimSpace(line)
			if i := strings.Index(line, " #"); i >= 0 {
				line = strings.TrimSpace(line[:i])
			}
			if !strings.HasPrefix(line, "curate ") || strings.ContainsAny(line, "|&;$<>") {
				continue
			}
			args := splitArgs(line)[1:]
			if names := missingFile(root, args); names != "" {
				continue // the curator's own file (a profile, a manifest)
			}
			if (args[0] == "build" || args[0] == "rebuild") && !strings.Contains(line, "--dry-run") {
				args = append(args, "--dry-run")
			}
			code, _, errs := cli(t, append([]string{"-w", root}, args...)...)
			ran++
			if code != 0 && code != 2 { // 2: an infeasible selection, said and not saved
				t.Errorf("%s: the example %q exits %d: %s", c.CommandPath(), line, code, errs)
			}
		}
	}
	walk(newRoot(&Env{Out: os.Stdout, Err: os.Stderr}))
	if ran < 20 {
		t.Errorf("only %d examples ran", ran)
	}
}

// missingFile is an argument naming a .toml, .json or .jsonl file the
// workspace does not hold.
func missingFile(root string, args []string) string {
	for _, a := range args {
		if strings.HasSuffix(a, ".toml") || strings.HasSuffix(a, ".json") || strings.HasSuffix(a, ".jsonl") {
			if _, err := os.Stat(filepath.Join(root, a)); err != nil {
				return a
			}
		}
	}
	return ""
}

// splitArgs splits a command line on spaces, keeping '...' and "..."
// together.
func splitArgs(s string) []string {
	var out []string
	var cur strings.Builder
	quote := rune(0)
	in := false
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote == 0 && (r == '\'' || r == '"'):
			quote, in = r, true
		case quote == 0 && r == ' ':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}
