package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"curate/docs"
)

// `curate help` lists every topic, `curate help TOPIC` prints the docs
// page itself, a command's name gives its help, and anything else is one
// error with exit 1.
func TestHelpTopics(t *testing.T) {
	code, out, errs := cli(t, "help")
	if code != 0 {
		t.Fatalf("help: exit %d: %s", code, errs)
	}
	for _, name := range []string{"filters", "outcomes", "exit-codes", "config", "json", "keys"} {
		if !strings.Contains(out, "  "+name+" ") {
			t.Errorf("curate help does not list topic %q:\n%s", name, out)
		}
	}
	for _, tp := range docs.Topics {
		code, out, errs := cli(t, "help", tp.Name)
		page, err := os.ReadFile(filepath.Join("..", "docs", tp.File))
		if err != nil {
			t.Fatal(err)
		}
		if code != 0 || out != string(page) {
			t.Errorf("curate help %s: exit %d (%s), and the text is not docs/%s", tp.Name, code, errs, tp.File)
		}
	}
	if code, out, _ := cli(t, "help", "label"); code != 0 || !strings.Contains(out, "curate label") {
		t.Errorf("curate help label: exit %d\n%s", code, out)
	}
	if code, out, _ := cli(t, "help", "repo", "show"); code != 0 || !strings.Contains(out, "repo show") {
		t.Errorf("curate help repo show: exit %d\n%s", code, out)
	}
	code, _, errs = cli(t, "help", "nosuch")
	if code != 1 || !strings.Contains(errs, `no help topic or command "nosuch"`) || strings.Count(errs, "\n") != 1 {
		t.Errorf("curate help nosuch: exit %d, stderr %q", code, errs)
	}
	if _, out, _ := cli(t, "--help"); !strings.Contains(out, "curate help TOPIC") {
		t.Errorf("curate --help does not name the topics:\n%s", out)
	}
}

// No command's help sends the reader to a README they may not have.
func TestHelpNamesNoReadme(t *testing.T) {
	root := newRoot(&Env{Out: &strings.Builder{}, Err: &strings.Builder{}, In: strings.NewReader("")})
	var visit func(c *cobra.Command)
	visit = func(c *cobra.Command) {
		text := c.Short + c.Long + c.Example + c.Flags().FlagUsages()
		if strings.Contains(text, "README") {
			t.Errorf("curate %s --help names the README; point to `curate help TOPIC`", c.CommandPath())
		}
		for _, sub := range c.Commands() {
			visit(sub)
		}
	}
	visit(root)
}
