// Package diffview lays a parsed patch out as display rows, unified or
// side by side, and styles only the rows on screen.
package diffview

import (
	"fmt"
	"path"
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/charmbracelet/x/ansi"

	"curate/pipeline/unidiff"
	"curate/themes"
	"curate/ui/components/frame"
)

// Doc is a patch laid out as display rows for one mode. Rows are cheap
// structs; a row becomes styled text only when it is on screen, and that
// text is cached, so a 20,000-line patch opens and scrolls at once.
type Doc struct {
	files      []unidiff.File
	sideBySide bool
	rows       []diffRow
	fileRows   []int // row index of each file header
	hunkRows   []int // row index of each hunk header

	width   int
	hscroll int // cells of code hidden on the left (long lines)
	styles  *themes.Styles
	cache   map[int]string
	// examined counts the bytes of lines rendering looked at (tests check
	// it is bounded by the rows shown, not by the lines' length).
	examined int
	lexers   map[int]chroma.Lexer
	// paints of the gutter and markers, drawn on every line
	lineNo, plus, minus themes.Paint
}

type rowKind uint8

const (
	rowFile rowKind = iota
	rowHunk
	rowLine // unified: one line; side by side: a left/right pair
)

type diffRow struct {
	kind rowKind
	file int32
	hunk *unidiff.Hunk
	// Unified: a is the line and b its partner for word marks (a removed
	// line paired with the added line that replaced it). Side by side: a is
	// the old side and b the new side; either may be nil.
	a, b *unidiff.Line
}

// New lays files out for one mode and width.
func New(files []unidiff.File, sideBySide bool, width int, st *themes.Styles) *Doc {
	d := &Doc{files: files, sideBySide: sideBySide, width: width, styles: st, cache: map[int]string{}, lexers: map[int]chroma.Lexer{},
		lineNo: themes.PaintOf(st.LineNo), plus: themes.PaintOf(st.Added), minus: themes.PaintOf(st.Removed)}
	n := 0
	for i := range files {
		n++
		for _, h := range files[i].Hunks {
			n += 1 + len(h.Lines)
		}
	}
	d.rows = make([]diffRow, 0, n)
	for fi := range files {
		f := &files[fi]
		d.fileRows = append(d.fileRows, len(d.rows))
		d.rows = append(d.rows, diffRow{kind: rowFile, file: int32(fi)})
		for hi := range f.Hunks {
			h := &f.Hunks[hi]
			d.hunkRows = append(d.hunkRows, len(d.rows))
			d.rows = append(d.rows, diffRow{kind: rowHunk, file: int32(fi), hunk: h})
			d.addHunk(int32(fi), h)
		}
	}
	return d
}

// addHunk pairs each run of removed lines with the run of added lines
// after it: side by side they share rows; unified they mark changed words.
func (d *Doc) addHunk(fi int32, h *unidiff.Hunk) {
	ls := h.Lines
	for i := 0; i < len(ls); {
		if ls[i].Kind == unidiff.Context {
			l := &ls[i]
			if d.sideBySide {
				d.rows = append(d.rows, diffRow{kind: rowLine, file: fi, a: l, b: l})
			} else {
				d.rows = append(d.rows, diffRow{kind: rowLine, file: fi, a: l})
			}
			i++
			continue
		}
		j := i
		for j < len(ls) && ls[j].Kind == unidiff.Removed {
			j++
		}
		k := j
		for k < len(ls) && ls[k].Kind == unidiff.Added {
			k++
		}
		dels, adds := ls[i:j], ls[j:k]
		if d.sideBySide {
			for x := 0; x < max(len(dels), len(adds)); x++ {
				r := diffRow{kind: rowLine, file: fi}
				if x < len(dels) {
					r.a = &dels[x]
				}
				if x < len(adds) {
					r.b = &adds[x]
				}
				d.rows = append(d.rows, r)
			}
		} else {
			for x := range dels {
				r := diffRow{kind: rowLine, file: fi, a: &dels[x]}
				if x < len(adds) {
					r.b = &adds[x]
				}
				d.rows = append(d.rows, r)
			}
			for x := range adds {
				r := diffRow{kind: rowLine, file: fi, a: &adds[x]}
				if x < len(dels) {
					r.b = &dels[x]
				}
				d.rows = append(d.rows, r)
			}
		}
		if k == i { // a line kind we do not show; never loop forever
			k = i + 1
		}
		i = k
	}
}

// FileAt is the file shown at row i.
func (d *Doc) FileAt(i int) int {
	if i < 0 || i >= len(d.rows) {
		return 0
	}
	return int(d.rows[i].file)
}

// Render returns row i as styled text, from the cache when it can.
func (d *Doc) Render(i int) string {
	if s, ok := d.cache[i]; ok {
		return s
	}
	if len(d.cache) > 4096 { // bound memory on long scrolls
		d.cache = map[int]string{}
	}
	s := d.renderRow(i)
	d.cache[i] = s
	return s
}

func (d *Doc) renderRow(i int) string {
	st, w := d.styles, d.width
	r := d.rows[i]
	f := &d.files[r.file]
	switch r.kind {
	case rowFile:
		label := fmt.Sprintf(" %s  +%d -%d", frame.CleanLine(f.Name()), f.Added, f.Removed)
		if f.OldName != "" && f.NewName != "" && f.OldName != f.NewName && f.OldName != "/dev/null" && f.NewName != "/dev/null" {
			label = fmt.Sprintf(" %s → %s  +%d -%d", frame.CleanLine(f.OldName), frame.CleanLine(f.NewName), f.Added, f.Removed)
		}
		if f.Binary {
			label += "  (binary)"
		}
		return st.FileHeader.Render(frame.PadRight(label, w))
	case rowHunk:
		h := r.hunk
		return st.HunkHeader.Render(frame.Truncate(fmt.Sprintf("@@ -%d,%d +%d,%d @@ %s", h.OldStart, h.OldLines, h.NewStart, h.NewLines, frame.CleanLine(h.Header)), w))
	}
	if !d.sideBySide {
		return d.unifiedLine(int(r.file), r.a, r.b, w)
	}
	half := (w - 1) / 2
	left := d.half(int(r.file), r.a, r.b, true, half)
	right := d.half(int(r.file), r.b, r.a, false, w-1-half)
	return left + st.Muted.Render(st.Palette.Separator) + right
}

func (d *Doc) unifiedLine(fi int, l, partner *unidiff.Line, w int) string {
	no := func(n int) string {
		if n == 0 {
			return "     "
		}
		return fmt.Sprintf("%5d", n)
	}
	gutter := d.lineNo.Render(no(l.OldNo) + " " + no(l.NewNo) + " ")
	return gutter + d.code(fi, l, partner, max(w-12, 1))
}

// half renders one side of a side-by-side row; l may be nil (padding).
func (d *Doc) half(fi int, l, other *unidiff.Line, old bool, w int) string {
	if l == nil {
		return strings.Repeat(" ", w)
	}
	n := l.NewNo
	if old {
		n = l.OldNo
	}
	var partner *unidiff.Line
	if l.Kind != unidiff.Context && other != nil && other.Kind != unidiff.Context {
		partner = other
	}
	return d.lineNo.Render(fmt.Sprintf("%5d ", n)) + frame.PadRight(d.code(fi, l, partner, max(w-6, 1)), max(w-6, 1))
}

// code renders marker and text of a line, highlighted for its file type,
// with the words that differ from its partner line marked.
func (d *Doc) code(fi int, l, partner *unidiff.Line, w int) string {
	// The row shows at most hscroll+w cells of the line: look at no more of
	// it than those cells can take (a cell is at most 4 bytes; the margin
	// keeps the "…" of a cut line), so a line of megabytes costs a frame
	// what a short one does.
	limit := (d.hscroll+w)*4 + 64
	text := displayText(frame.CutBytes(l.Text, limit))
	d.examined += len(text)
	marker := " "
	switch l.Kind {
	case unidiff.Added:
		marker = d.plus.Render("+")
	case unidiff.Removed:
		marker = d.minus.Render("-")
	}
	from, to := 0, 0
	if partner != nil && partner.Kind != l.Kind {
		other := displayText(frame.CutBytes(partner.Text, limit))
		d.examined += len(other)
		from, to = changedSpan(text, other)
	}
	if d.hscroll > 0 {
		// Scrolled right: drop the first cells, shifting the changed span.
		cut := ansi.Cut(text, d.hscroll, ansi.StringWidth(text))
		shift := len(text) - len(cut)
		text = cut
		from, to = max(from-shift, 0), max(to-shift, 0)
	}
	if ansi.StringWidth(text) > w-1 {
		text = ansi.Truncate(text, w-1, "…")
		to = min(to, len(text))
		from = min(from, to)
	}
	return marker + d.highlight(fi, text, from, to, l.Kind == unidiff.Added)
}

func displayText(s string) string {
	if strings.IndexByte(s, '\t') >= 0 {
		s = strings.ReplaceAll(s, "\t", "    ")
	}
	return frame.CleanLine(s)
}

// changedSpan is the byte range of a that differs from b, widened to word
// boundaries; 0,0 when the lines share nothing (all of it changed).
func changedSpan(a, b string) (int, int) {
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	if len(a)-s <= p {
		return 0, 0 // a is all in b: the partner only adds
	}
	for p > 0 && isWord(a[p-1]) {
		p--
	}
	end := len(a) - s
	for end < len(a) && end > 0 && isWord(a[end-1]) && isWord(a[end]) {
		end++
	}
	if p == 0 && end == len(a) || p >= end {
		return 0, 0
	}
	return p, end
}

func isWord(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// highlight colours text by its file's lexer; bytes [from,to) are marked
// as changed.
func (d *Doc) highlight(fi int, text string, from, to int, added bool) string {
	st := d.styles
	lx := d.lexer(fi)
	it, err := lx.Tokenise(nil, text)
	if err != nil {
		return st.Base.Render(text)
	}
	var b strings.Builder
	pos := 0
	for tok := it(); tok != chroma.EOF; tok = it() {
		v := strings.TrimRight(tok.Value, "\n")
		for v != "" {
			// Split the token where the changed span starts or ends.
			cut := len(v)
			marked := to > from && pos >= from && pos < to
			switch {
			case marked && to-pos < cut:
				cut = to - pos
			case !marked && pos < from && from-pos < cut:
				cut = from - pos
			}
			piece := v[:cut]
			var mode int8
			if marked {
				mode = -1
				if added {
					mode = 1
				}
			}
			p := st.TokenPaint(tok.Type, mode)
			b.WriteString(p.Pre)
			b.WriteString(piece)
			b.WriteString(p.Post)
			pos += cut
			v = v[cut:]
		}
	}
	return b.String()
}

func (d *Doc) lexer(fi int) chroma.Lexer {
	if lx, ok := d.lexers[fi]; ok {
		return lx
	}
	lx := lexerFor(d.files[fi].Name())
	d.lexers[fi] = lx
	return lx
}

// lexerCache maps a file extension (or a base name without one, such as
// Dockerfile) to its lexer: chroma's Match tries every lexer's globs and
// costs milliseconds.
var lexerCache sync.Map

func lexerFor(name string) chroma.Lexer {
	key := path.Ext(name)
	if key == "" {
		key = path.Base(name)
	}
	if lx, ok := lexerCache.Load(key); ok {
		return lx.(chroma.Lexer)
	}
	lx := lexers.Match(name)
	if lx == nil {
		lx = lexers.Fallback
	}
	lx = chroma.Coalesce(lx)
	lexerCache.Store(key, lx)
	return lx
}

// Len is the number of rows.
func (d *Doc) Len() int { return len(d.rows) }

// Files are the patch's files.
func (d *Doc) Files() []unidiff.File { return d.files }

// FileRows is the row of each file's header.
func (d *Doc) FileRows() []int { return d.fileRows }

// HunkRows is the row of each hunk's header.
func (d *Doc) HunkRows() []int { return d.hunkRows }

// HScroll is how many cells of code are hidden on the left.
func (d *Doc) HScroll() int { return d.hscroll }

// SetHScroll shows long lines from further right; every row changes, so
// the rendered rows are dropped.
func (d *Doc) SetHScroll(h int) {
	h = max(h, 0)
	if h != d.hscroll {
		d.hscroll = h
		d.cache = map[int]string{}
	}
}
