package cli

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"curate/internal/testenv"
	"curate/ui/shared"
)

// TestHelpAndCandidatesAt80x24InTmux: in a real 80x24 terminal the
// Candidates list keeps its ID, STATUS and VALID columns, and `?` shows
// every key of the screen with its description whole, wrapped where it
// is long ("toggle he…", "label eas…", "exclude (…" were cut before).
func TestHelpAndCandidatesAt80x24InTmux(t *testing.T) {
	testenv.RequireCommand(t, "tmux")
	bin, demo := buildDemo(t)
	tp := startTmux(t, bin+" --workspace "+demo, "USER=tmux-curator")
	tp.tm("resize-window", "-t", "0", "-x", "80", "-y", "24")
	screen := tp.wait("start", 15*time.Second, "Candidates]", "314/314")
	if !regexp.MustCompile(`(?m)^\s+ID\S*\s.*\bSTATUS\b.*\bVALID\b`).MatchString(screen) {
		t.Errorf("the Candidates header at 80 columns lacks ID, STATUS or VALID:\n%s", screen)
	}
	tp.keys("?")
	screen = tp.wait("help", 15*time.Second, "Keys: Candidates")
	if strings.Contains(screen, "…") {
		t.Errorf("help cuts a description at 80x24:\n%s", screen)
	}
	text := " " + strings.Join(strings.Fields(screen), " ") + " "
	shown := 0
	for _, a := range shared.Actions() {
		if !slices.Contains([]string{"move", "Candidates", "label"}, a.Scope) {
			continue
		}
		for _, w := range strings.Fields(a.Help) {
			if !strings.Contains(text, w) {
				t.Errorf("help lacks %q of %s's %q:\n%s", w, a.Name, a.Help, screen)
			}
		}
		shown++
	}
	for _, whole := range []string{"toggle help", "exclude (reason) /", "clear difficulty"} {
		if !strings.Contains(screen, whole) {
			t.Errorf("help lacks %q:\n%s", whole, screen)
		}
	}
	if shown < 20 {
		t.Errorf("only %d keys checked", shown)
	}
	tp.keys("Escape")
	tp.keys("q")
	tp.waitExit(15 * time.Second)
}
