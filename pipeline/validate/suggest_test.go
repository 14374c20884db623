package validate

import (
	"fmt"
	"strings"
	"testing"

	"curate/workspace"
)

// TestSuggestionsWorkAsPrinted reads every rule's suggestion as a
// curator would paste it: the [repos."owner/name"] (or [docker]) header,
// then the rest as one key of that section, into curate.toml. Lines that
// did not parse were printed before: `dockerfile = "RUN ..."` (a string
// where curate.toml wants a list), IMAGE-WITH-PYTHON placeholders, and a
// second "#" comment inside the line.
func TestSuggestionsWorkAsPrinted(t *testing.T) {
	c := DefaultClassifier()
	for i, r := range c.rules {
		if r.Suggest == "" {
			continue
		}
		groups := make([]string, r.re.NumSubexp()+1)
		for g := range groups {
			groups[g] = fmt.Sprintf("x%d", g)
		}
		f := r.failure("rust", "acme/widgets", "line", groups)
		line, _, _ := strings.Cut(f.Suggestion, "  # ")
		if strings.Contains(line, "IMAGE-WITH") || strings.Contains(line, "#") {
			t.Errorf("rule %d (%s): suggestion %q holds a placeholder or a comment", i+1, r.Class, line)
			continue
		}
		header, key, ok := strings.Cut(line, "] ")
		if !ok {
			t.Errorf("rule %d (%s): suggestion %q is not a [section] key = value line", i+1, r.Class, line)
			continue
		}
		doc := "[workspace]\nname = \"w\"\n\n" + header + "]\n" + key + "\n"
		if _, err := workspace.ParseConfig("curate.toml", []byte(doc)); err != nil {
			t.Errorf("rule %d (%s): suggestion %q does not work as printed: %v", i+1, r.Class, line, err)
		}
	}
}
