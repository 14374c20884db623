package pipeline

import (
	"encoding/json"
	"fmt"
	"sort"
)

// ExtraField is one key a source had that curate does not model, with its
// value as text (a string as it is, anything else as JSON). Text is raw:
// screens sanitize it.
type ExtraField struct{ Key, Text string }

// ExtraFields lists the task's Extra keys in name order, for `curate show`
// and the workbench's task screen.
func (t *Task) ExtraFields() []ExtraField {
	keys := make([]string, 0, len(t.Extra))
	for k := range t.Extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]ExtraField, len(keys))
	for i, k := range keys {
		text := fmt.Sprint(t.Extra[k])
		if _, isString := t.Extra[k].(string); !isString {
			if b, err := json.Marshal(t.Extra[k]); err == nil {
				text = string(b)
			}
		}
		out[i] = ExtraField{k, text}
	}
	return out
}
