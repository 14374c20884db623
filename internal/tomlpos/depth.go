package tomlpos

import (
	"errors"
	"fmt"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// MaxDepth is how deep tables and arrays may nest in a TOML file curate
// reads. Real files nest a handful of levels; a file nesting thousands
// costs memory in every reader that walks it, so it is refused before
// anything decodes it.
const MaxDepth = 64

// DepthError is a key nested deeper than MaxDepth, where it is written.
type DepthError struct {
	Pos
	Key string // its first MaxDepth+1 parts
}

func (e *DepthError) Error() string {
	return fmt.Sprintf("%s...: key path nests more than %d levels deep (tables, inline tables and arrays)", e.Key, MaxDepth)
}

// WrapDepth puts the file name and position before a *DepthError
// ("x/task.toml:3:1: a.a...: key path nests ..."); other errors get the
// name alone.
func WrapDepth(name string, err error) error {
	var de *DepthError
	if errors.As(err, &de) {
		return fmt.Errorf("%s:%d:%d: %w", name, de.Line, de.Col, err)
	}
	return fmt.Errorf("%s: %w", name, err)
}

// CheckDepth returns a *DepthError for the first key of data nested
// deeper than MaxDepth, nil when there is none. It reads the document
// once and keeps at most MaxDepth+1 key parts, so its cost is linear in
// the file whatever its shape. Syntax errors are left to the decoder.
func CheckDepth(data []byte) error {
	var p unstable.Parser
	p.Reset(data)
	var table []string // the current [table]'s path: its keys are under it
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			w := depthWalk{p: &p, at: firstKey(e)}
			var err error
			if table, err = w.keyDepth(nil, e.Key()); err != nil {
				return err
			}
			if e.Kind == unstable.ArrayTable {
				table = append(table, "0") // an element of the array
			}
		case unstable.KeyValue:
			w := depthWalk{p: &p, at: firstKey(e)}
			if err := w.kvDepth(table, e); err != nil {
				return err
			}
		}
	}
	return nil
}

// depthWalk follows one key path; at is where the expression holding it
// is written, for the message.
type depthWalk struct {
	p  *unstable.Parser
	at unstable.Range
}

// keyDepth adds the parts of a dotted key to path, refusing at the first
// part past MaxDepth. Appends copy (full slice expressions), so sibling
// keys never share a path.
func (w depthWalk) keyDepth(path []string, it unstable.Iterator) ([]string, error) {
	for it.Next() {
		path = append(path[:len(path):len(path)], string(it.Node().Data))
		if len(path) > MaxDepth {
			return nil, &DepthError{Pos: pos(w.p, w.at), Key: strings.Join(path, ".")}
		}
	}
	return path, nil
}

func (w depthWalk) kvDepth(path []string, kv *unstable.Node) error {
	path, err := w.keyDepth(path, kv.Key())
	if err != nil {
		return err
	}
	return w.valueDepth(path, kv.Value())
}

// valueDepth walks inline tables and arrays; an array counts as one
// level, as its index does in a key path ("a.0.b").
func (w depthWalk) valueDepth(path []string, v *unstable.Node) error {
	switch v.Kind {
	case unstable.InlineTable:
		it := v.Children()
		for it.Next() {
			if err := w.kvDepth(path, it.Node()); err != nil {
				return err
			}
		}
	case unstable.Array:
		path = append(path[:len(path):len(path)], "0")
		if len(path) > MaxDepth {
			return &DepthError{Pos: pos(w.p, w.at), Key: strings.Join(path, ".")}
		}
		it := v.Children()
		for it.Next() {
			if err := w.valueDepth(path, it.Node()); err != nil {
				return err
			}
		}
	}
	return nil
}

// firstKey is where an expression's key is written.
func firstKey(e *unstable.Node) unstable.Range {
	it := e.Key()
	if it.Next() {
		return it.Node().Raw
	}
	return e.Raw
}
