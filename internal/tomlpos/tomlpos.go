// Package tomlpos finds where each key of a TOML document is written, so a
// value checked after decoding can still be reported as file:line:col.
package tomlpos

import (
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// Pos is a 1-based line and column.
type Pos struct{ Line, Col int }

// Positions maps each key path to where its key is written. Paths join
// keys with "."; elements of an array of tables, or of an inline array,
// add their 0-based index ("selection.quotas.1.min"). A document that does
// not parse gives what was read before the error (the decoder reports
// syntax errors itself).
func Positions(data []byte) map[string]Pos {
	out := map[string]Pos{}
	var p unstable.Parser
	p.Reset(data)
	var table []string
	arrayIndex := map[string]int{}
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			table = keyParts(e.Key())
			path := strings.Join(table, ".")
			if e.Kind == unstable.ArrayTable {
				i := arrayIndex[path]
				arrayIndex[path] = i + 1
				table = append(table, strconv.Itoa(i))
			}
			if k := e.Child(); k != nil {
				out[strings.Join(table, ".")] = pos(&p, k.Raw)
			}
		case unstable.KeyValue:
			addKeyValue(&p, out, table, e)
		}
	}
	return out
}

func addKeyValue(p *unstable.Parser, out map[string]Pos, prefix []string, kv *unstable.Node) {
	it := kv.Key()
	path := append([]string(nil), prefix...)
	var first *unstable.Node
	for it.Next() {
		if first == nil {
			first = it.Node()
		}
		path = append(path, string(it.Node().Data))
	}
	if first != nil {
		out[strings.Join(path, ".")] = pos(p, first.Raw)
	}
	addValue(p, out, path, kv.Value())
}

func addValue(p *unstable.Parser, out map[string]Pos, path []string, v *unstable.Node) {
	switch v.Kind {
	case unstable.InlineTable:
		it := v.Children()
		for it.Next() {
			addKeyValue(p, out, path, it.Node())
		}
	case unstable.Array:
		it := v.Children()
		for i := 0; it.Next(); i++ {
			el := it.Node()
			elPath := append(append([]string(nil), path...), strconv.Itoa(i))
			if el.Raw.Length > 0 {
				out[strings.Join(elPath, ".")] = pos(p, el.Raw)
			}
			addValue(p, out, elPath, el)
		}
	}
}

func keyParts(it unstable.Iterator) []string {
	var parts []string
	for it.Next() {
		parts = append(parts, string(it.Node().Data))
	}
	return parts
}

func pos(p *unstable.Parser, r unstable.Range) Pos {
	if int(r.Offset)+int(r.Length) > len(p.Data()) {
		return Pos{1, 1}
	}
	s := p.Shape(r)
	return Pos{s.Start.Line, s.Start.Column}
}

// Find returns the position of path, else of its nearest written parent
// (a value inside an inline table is reported at that table's key), else
// line 1 column 1.
func Find(positions map[string]Pos, path string) Pos {
	for {
		if p, ok := positions[path]; ok {
			return p
		}
		i := strings.LastIndexByte(path, '.')
		if i < 0 {
			return Pos{1, 1}
		}
		path = path[:i]
	}
}
