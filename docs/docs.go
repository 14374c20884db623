// Package docs is curate's user documentation. The help topics `curate help
// TOPIC` prints are these pages, embedded, so the binary and the pages
// cannot say different things.
package docs

import (
	"embed"
	"strings"
)

//go:embed filters.md outcomes.md exit-codes.md configuration.md json.md keys.md
var topicFiles embed.FS

// Topic is one `curate help TOPIC` page.
type Topic struct {
	Name    string // what `curate help` takes
	File    string // the page under docs/
	Summary string
}

// Topics are the help topics, in the order `curate help` lists them.
var Topics = []Topic{
	{"filters", "filters.md", "filter expressions: --filter and the workbench's /"},
	{"outcomes", "outcomes.md", "run outcomes, the status they give, failure classes, what to do"},
	{"exit-codes", "exit-codes.md", "what each exit code means"},
	{"config", "configuration.md", "every curate.toml key"},
	{"json", "json.md", "the fields of --json output"},
	{"keys", "keys.md", "every workbench key, by screen (from the workbench's key table)"},
}

// TopicText returns a topic's page, or false when there is no such topic.
func TopicText(name string) (string, bool) {
	for _, tp := range Topics {
		if tp.Name == name {
			data, err := topicFiles.ReadFile(tp.File)
			if err != nil { // embedded above: cannot happen in a built binary
				return "", false
			}
			return string(data), true
		}
	}
	return "", false
}

// TopicNames lists the topic names, for messages and completion.
func TopicNames() []string {
	names := make([]string, len(Topics))
	for i, tp := range Topics {
		names[i] = tp.Name
	}
	return names
}

// Summary is the topic list `curate help` prints.
func Summary() string {
	var b strings.Builder
	b.WriteString("Help topics (curate help TOPIC):\n")
	for _, tp := range Topics {
		b.WriteString("  " + tp.Name + strings.Repeat(" ", 12-len(tp.Name)) + tp.Summary + "\n")
	}
	return b.String()
}
