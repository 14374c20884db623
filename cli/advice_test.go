package cli

import (
	"encoding/json"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// adviceRE finds a command curate tells the curator to run, the ways its
// messages write one: `curate ...`, (curate ...), and after "next:",
// "then", "with", "or" or "run" up to the end of the clause.
var adviceRE = regexp.MustCompile("`curate ([^`]+)`|\\(curate ([^)]+)\\)|(?:next:|\\bthen|\\bwith|\\bor|\\brun)\\s+curate ([a-z][^;,)\\n`\"(]*)")

// productDirs hold the code whose strings reach the curator.
var productDirs = []string{"../app", "../cli", "../pipeline", "../workspace", "../ui", "../store", "../internal"}

// adviceKind says how the runner treats a suggestion it cannot simply run
// in a demo workspace; every other suggestion must exit 0 there.
type adviceKind struct {
	mode string // "mention": names a command, advises nothing; "parse": checked without running; "empty": runs, exit 1 for nothing to do
	why  string
}

var adviceKinds = map[string]adviceKind{
	"builds Dockerfiles":  {"mention", "says who writes Dockerfiles"},
	"validate found them": {"mention", "says where the tests came from"},
	"validate found them; SWE-bench leaves such tests out": {"mention", "says where the tests came from"},
	"%s":                                     {"mention", "the Jobs list's CLI twin of a job kind, each checked on its own"},
	"build":                                  {"mention", "the Jobs list names the CLI twin of a job"},
	"show":                                   {"mention", "says which command prints the digest"},
	"runs cancel":                            {"mention", "a run's detail: who cancelled it"},
	"validate":                               {"mention", "export's refusal names the command; its ids are the ones listed beside it"},
	"env bootstrap":                          {"parse", "builds base images: minutes of Docker"},
	"env bootstrap,\n# or on first use":      {"parse", "builds base images: minutes of Docker"},
	"env prune":                              {"parse", "removes Docker images"},
	"env check":                              {"parse", "asks Docker"},
	"env check %s":                           {"parse", "asks Docker"},
	"validate --timeout 1h ID":               {"parse", "runs containers"},
	"mine git PATH":                          {"parse", "needs a clone"},
	"mine github OWNER/REPO":                 {"parse", "needs the network"},
	"mine %s %s":                             {"parse", "needs a clone"},
	"edit ID instruction":                    {"parse", "opens $EDITOR"},
	"edit ID tests --drop NAME --reason WHY": {"parse", "rebuilds the task in Docker"},
	"import harbor tasks --in-place":         {"parse", "imports the workspace's own tasks/ again"},
	"select --filter 'status=valid'":         {"empty", "the demo has no valid task: refused as an empty match"},
	"edit ID requirements":                   {"empty", "the demo's statements give every value their tests check: nothing to add"},
	"demo for a sample":                      {"mention", "the empty Candidates screen's pointer to the demo"},
	"rebuild --repo %s":                      {"parse", "rebuilds in Docker"},
	"rebuild --repo OWNER/NAME":              {"parse", "rebuilds in Docker"},
	"validate %s":                            {"parse", "runs containers"},
	"validate --repo %s --failed":            {"parse", "runs containers"},
	"validate --repo OWNER/NAME --failed":    {"parse", "runs containers"},
	"build --at merge %s":                    {"parse", "builds in Docker"},
	"build ID":                               {"parse", "builds in Docker"},
	"build --candidates":                     {"parse", "builds in Docker"},
	"env bootstrap --force":                  {"parse", "builds base images: minutes of Docker"},
	"runs show %s":                           {"parse", "names a run of the Runs screen; the demo's run ids differ"},
	"repo show %s --json":                    {"parse", "names a repository whose env check failed; the demo has none"},
	"env accept %s":                          {"parse", "needs a failed env check (Docker)"},
	"env accept":                             {"mention", "the Repos screen's key names its CLI twin"},
	"env buildkit install":                   {"parse", "installs buildkitd into a Kubernetes cluster"},
}

// suggestions are the advice strings in curate's product code (string
// literals, not comments), each once.
func suggestions(t *testing.T) []string {
	t.Helper()
	seen := map[string]bool{}
	for _, dir := range productDirs {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return err
			}
			f, err := parser.ParseFile(token.NewFileSet(), p, nil, 0)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if l, ok := n.(*ast.BasicLit); ok && l.Kind == token.STRING {
					s, _ := strconv.Unquote(l.Value)
					for _, m := range adviceRE.FindAllStringSubmatch(s, -1) {
						c := strings.TrimRight(strings.TrimSpace(m[1]+m[2]+m[3]), ".")
						for _, c := range regexp.MustCompile(`,? (?:and )?curate `).Split(c, -1) {
							seen[strings.TrimSuffix(c, "...")] = true
						}
					}
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	var out []string
	for s := range seen {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// argv turns a suggestion into arguments, its placeholders filled from
// the demo workspace.
func argv(t *testing.T, s, id, dir string) []string {
	fill := strings.NewReplacer("COMMAND", "list", "OWNER/REPO", "acme/calc", "PATH", dir, "DIR", dir, "ID", id,
		"NAME", "advice", "WHY", "advice", "'status=valid'", "status=valid")
	s = fill.Replace(s)
	switch s {
	case "mine %s %s":
		s = "mine git " + dir
	case "env check %s":
		s = "env check acme/calc"
	case "select rm %s first":
		s = "select rm advice"
	}
	// %s: what the word before it takes.
	for strings.Contains(s, "%s") {
		at := strings.Index(s, "%s")
		words := strings.Fields(s[:at])
		v := id
		switch words[len(words)-1] {
		case "--repo", "edit":
			v = "acme/calc"
		case "--filter":
			v = "status=built"
		case "--dir", "init":
			v = dir
		}
		s = s[:at] + v + s[at+2:]
	}
	if strings.Contains(s, "%") || strings.ContainsAny(s, "|…") {
		t.Errorf("suggestion %q has a placeholder the runner cannot fill", s)
	}
	return strings.Fields(s)
}

// TestEverySuggestionRuns is the suggestion runner: each command curate
// advises is parsed by curate's own command tree and, unless it needs
// Docker, the network or an editor, run in a demo workspace.
func TestEverySuggestionRuns(t *testing.T) {
	all := suggestions(t)
	if len(all) < 20 {
		t.Fatalf("found only %d suggestions: the pattern no longer matches curate's advice", len(all))
	}
	root := demoWorkspace(t)
	if _, errs, code := cliIn(t, root, "select", "--budget", "3", "--selection", "advice"); code != 0 {
		t.Fatalf("select: %s", errs)
	}
	out, _, _ := cliIn(t, root, "list", "--json")
	var tasks []struct{ ID string }
	if err := json.Unmarshal([]byte(out), &tasks); err != nil || len(tasks) == 0 {
		t.Fatalf("list --json: %d tasks, %v", len(tasks), err)
	}
	id := tasks[0].ID
	counts := map[string]int{}
	for _, s := range all {
		kind := adviceKinds[s]
		counts[kind.mode]++
		if kind.mode == "mention" {
			continue
		}
		args := argv(t, s, id, filepath.Join(t.TempDir(), "new"))
		if err := parseOnly(args); err != nil {
			t.Errorf("curate %s: does not parse: %v", s, err)
			continue
		}
		if kind.mode == "parse" {
			continue
		}
		_, errs, code := cliIn(t, root, args...)
		want := 0
		if kind.mode == "empty" {
			want = 1
		}
		if code != want {
			t.Errorf("curate %s: exit %d, want %d: %s", strings.Join(args, " "), code, want, errs)
		}
	}
	t.Logf("%d suggestions: %d run (exit 0), %d run (empty match), %d parsed only, %d mentions", len(all), counts[""], counts["empty"], counts["parse"], counts["mention"])
	for s := range adviceKinds {
		if !contains(all, s) {
			t.Errorf("adviceKinds lists %q, which curate no longer prints", s)
		}
	}
}

// parseOnly resolves args in curate's command tree and parses their flags
// and positional arguments, without running anything.
func parseOnly(args []string) error {
	root := newRoot(&Env{Out: io.Discard, Err: io.Discard})
	root.InitDefaultHelpCmd() // as Execute does: `curate help TOPIC`
	cmd, rest, err := root.Find(args)
	if err != nil {
		return err
	}
	if err := cmd.ParseFlags(rest); errors.Is(err, pflag.ErrHelp) {
		return nil // --help: cobra prints the help
	} else if err != nil {
		return err
	}
	if err := cmd.ValidateArgs(cmd.Flags().Args()); err != nil {
		return err
	}
	return cmd.ValidateRequiredFlags()
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
