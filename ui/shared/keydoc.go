package shared

import (
	"fmt"
	"strings"
)

// KeysMarkdown is the workbench's key reference, written from the same
// table the key handler binds (docs/keys.md, `curate help keys`), so the
// page cannot name a key the workbench does not use.
func KeysMarkdown() string {
	var b strings.Builder
	b.WriteString("# Workbench keys\n\n")
	b.WriteString("`curate help keys` prints this page. It is generated from the workbench's\n")
	b.WriteString("key table (`go run ./internal/cmd/gendocs`). Every action can be rebound by\n")
	b.WriteString("its name in `curate.toml` `[ui.keys]` (see [configuration](configuration.md));\n")
	b.WriteString("in the workbench, `?` shows the keys of the screen in front and `:` every action.\n\n")
	b.WriteString("```console\n$ curate help keys | sed -n 1p\n# Workbench keys\n```\n")
	scopes, byScope := actionsByScope()
	for _, sc := range scopes {
		title := sc
		if sc == "global" {
			title = "Every screen"
		}
		fmt.Fprintf(&b, "\n## %s\n\n%s", title, keyTable(byScope[sc]))
	}
	return b.String()
}

// actionsByScope groups the key table's actions by scope, scopes in the
// table's order.
func actionsByScope() ([]string, map[string][]Action) {
	var scopes []string
	byScope := map[string][]Action{}
	for _, a := range actions {
		if _, ok := byScope[a.Scope]; !ok {
			scopes = append(scopes, a.Scope)
		}
		byScope[a.Scope] = append(byScope[a.Scope], a)
	}
	return scopes, byScope
}

// keyTable is a Markdown table of actions: keys, what they do, the name
// that rebinds them.
func keyTable(acts []Action) string {
	var b strings.Builder
	b.WriteString("| keys | does | action name |\n|---|---|---|\n")
	for _, a := range acts {
		keys := make([]string, len(a.Keys))
		for i, k := range a.Keys {
			keys[i] = "`" + strings.ReplaceAll(k, "|", `\|`) + "`"
		}
		fmt.Fprintf(&b, "| %s | %s | `%s` |\n", strings.Join(keys, ", "), strings.ReplaceAll(a.Help, "|", `\|`), a.Name)
	}
	return b.String()
}
