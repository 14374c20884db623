package cli

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/cobra"
)

// TestHelpReadableAt80Columns: every command's --help keeps its command
// list, help topics and flags within 80 columns when the output is not a
// terminal: long descriptions wrap under themselves. Examples stay one
// command a line, to copy whole; a word too long for any line (a flag's
// default list) is left whole.
func TestHelpReadableAt80Columns(t *testing.T) {
	wrappedSections := map[string]bool{"Flags:": true, "Global Flags:": true, "Available Commands:": true,
		"Additional Commands:": true, "Help topics (curate help TOPIC):": true}
	var walk func(c *cobra.Command)
	checked := 0
	walk = func(c *cobra.Command) {
		if !c.IsAvailableCommand() && c.Name() != "curate" {
			return
		}
		args := append(strings.Fields(strings.TrimPrefix(c.CommandPath(), "curate")), "--help")
		code, out, errs := cli(t, args...)
		if code != 0 {
			t.Fatalf("%s --help: %d %s", c.CommandPath(), code, errs)
		}
		section := ""
		for _, line := range strings.Split(out, "\n") {
			if strings.HasSuffix(line, ":") && !strings.HasPrefix(line, " ") {
				section = line
			}
			if !wrappedSections[section] || ansi.StringWidth(line) <= 80 || unbreakable(line) {
				continue
			}
			t.Errorf("%s --help, %s a %d-column line:\n%s", c.CommandPath(), section, ansi.StringWidth(line), line)
		}
		checked++
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(CommandTree())
	if checked < 20 {
		t.Fatalf("only %d commands checked", checked)
	}
}

// unbreakable reports whether line overflows only by a word longer than
// half a line, which no wrapping can break.
func unbreakable(line string) bool {
	for _, w := range strings.Fields(line) {
		if len(w) > 40 {
			return true
		}
	}
	return false
}
