// Package themes defines the workbench's colour themes (dark, light,
// high-contrast) and turns one into lipgloss styles and a chroma style,
// built once per program so no screen builds a style while rendering.
package themes

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/alecthomas/chroma/v2"
	chromastyles "github.com/alecthomas/chroma/v2/styles"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// Names lists the themes in the order help and errors show them.
var Names = []string{"dark", "light", "high-contrast"}

// Palette is a theme's colours; everything else derives from it.
type Palette struct {
	Name       string
	Fg, Muted  string
	Bg         string // "" leaves the terminal's background alone
	Accent     string
	AccentFg   string // text on an accent background
	CursorBg   string
	Marked     string
	Good, Bad  string
	Warn       string
	Added      string
	Removed    string
	AddedBg    string
	RemovedBg  string
	WordAddBg  string
	WordDelBg  string
	Chroma     string // chroma style name for syntax highlighting
	Glamour    string // glamour standard style
	BoldCursor bool   // high contrast: cursor also bold and underlined
	Separator  string
}

var palettes = map[string]Palette{
	"dark": {Name: "dark", Fg: "#d0d0d0", Muted: "#808080", Accent: "#5f87ff", AccentFg: "#ffffff", CursorBg: "#303a50",
		Marked: "#d7af5f", Good: "#5faf5f", Bad: "#ff5f5f", Warn: "#d7af00", Added: "#87d787", Removed: "#ff8787",
		AddedBg: "#1f3a24", RemovedBg: "#3f1f22", WordAddBg: "#2f6f3a", WordDelBg: "#7f2f35",
		Chroma: "monokai", Glamour: "dark", Separator: "│"},
	"light": {Name: "light", Fg: "#202020", Muted: "#707070", Accent: "#005fd7", AccentFg: "#ffffff", CursorBg: "#dde6f7",
		Marked: "#af5f00", Good: "#008700", Bad: "#d70000", Warn: "#af8700", Added: "#005f00", Removed: "#af0000",
		AddedBg: "#e6ffec", RemovedBg: "#ffebe9", WordAddBg: "#abf2bc", WordDelBg: "#ffc1c0",
		Chroma: "github", Glamour: "light", Separator: "│"},
	"high-contrast": {Name: "high-contrast", Fg: "#ffffff", Muted: "#e0e0e0", Bg: "#000000", Accent: "#ffff00", AccentFg: "#000000", CursorBg: "#ffffff",
		Marked: "#00ffff", Good: "#00ff00", Bad: "#ff0000", Warn: "#ffff00", Added: "#00ff00", Removed: "#ff5555",
		AddedBg: "#003300", RemovedBg: "#330000", WordAddBg: "#008800", WordDelBg: "#aa0000",
		Chroma: "bw", Glamour: "dark", BoldCursor: true, Separator: "┃"},
}

// Lookup returns a theme's palette; an unknown name is an error listing
// the known ones.
func Lookup(name string) (Palette, error) {
	p, ok := palettes[name]
	if !ok {
		return Palette{}, fmt.Errorf("theme %q: want one of %s", name, strings.Join(Names, ", "))
	}
	return p, nil
}

// Choose picks the theme: the flag, else the config, else light or dark
// from the terminal's background (detected by the caller before the program
// starts, since the query needs the terminal to itself).
func Choose(flag, config string, darkBackground bool) (string, error) {
	for _, n := range []string{flag, config} {
		if n != "" {
			if _, err := Lookup(n); err != nil {
				return "", err
			}
			return n, nil
		}
	}
	if darkBackground {
		return "dark", nil
	}
	return "light", nil
}

// NoColor reports whether the environment asks for no colour (NO_COLOR).
func NoColor() bool { return os.Getenv("NO_COLOR") != "" }

// NewRenderer makes a lipgloss renderer with a fixed colour profile, for
// tests and golden files (termenv.Ascii or termenv.ANSI).
func NewRenderer(profile termenv.Profile, dark bool) *lipgloss.Renderer {
	r := lipgloss.NewRenderer(os.Stdout)
	r.SetColorProfile(profile)
	r.SetHasDarkBackground(dark)
	return r
}

// Styles are every style the workbench draws with, built once.
type Styles struct {
	Palette Palette
	Profile termenv.Profile
	Chroma  *chroma.Style

	Base, Muted, Bold, Accent                 lipgloss.Style
	TabActive, TabInactive, TabBar            lipgloss.Style
	StatusBar, StatusKey, StatusOK, StatusBad lipgloss.Style
	Header, Cursor, Marked, CursorMarked      lipgloss.Style
	Good, Bad, Warn                           lipgloss.Style
	Label                                     lipgloss.Style // the curator's own value
	Added, Removed, AddedLine, RemovedLine    lipgloss.Style
	WordAdded, WordRemoved                    lipgloss.Style
	HunkHeader, FileHeader, LineNo            lipgloss.Style
	Box, Title, Error, Bar, BarEmpty          lipgloss.Style
	Key, Desc                                 lipgloss.Style

	tokens, wordAdd, wordDel map[chroma.TokenType]lipgloss.Style
	paints                   map[paintKey]Paint
}

type paintKey struct {
	tt   chroma.TokenType
	mode int8 // 0 plain, 1 added word, -1 removed word
}

// Paint is a style reduced to the escape codes around its text: rendering
// a token is two string writes instead of a lipgloss Render, which matters
// when a diff line has dozens of tokens.
type Paint struct{ Pre, Post string }

// Render wraps s (already free of control sequences) in the paint.
func (p Paint) Render(s string) string { return p.Pre + s + p.Post }

// PaintOf reduces a style to its escape codes (see Paint).
func PaintOf(st lipgloss.Style) Paint { return paintOf(st) }

func paintOf(st lipgloss.Style) Paint {
	const probe = "\x01"
	out := st.Render(probe)
	i := strings.Index(out, probe)
	if i < 0 {
		return Paint{}
	}
	return Paint{Pre: out[:i], Post: out[i+len(probe):]}
}

// TokenPaint is the paint of a chroma token, marked as a changed word
// when mode is 1 (added) or -1 (removed).
func (s *Styles) TokenPaint(tt chroma.TokenType, mode int8) Paint {
	k := paintKey{tt, mode}
	if p, ok := s.paints[k]; ok {
		return p
	}
	var st lipgloss.Style
	switch mode {
	case 1:
		st = s.TokenChanged(tt, true)
	case -1:
		st = s.TokenChanged(tt, false)
	default:
		st = s.Token(tt)
	}
	p := paintOf(st)
	s.paints[k] = p // Styles belong to the UI goroutine
	return p
}

// Build turns a palette into styles on renderer r.
func Build(p Palette, r *lipgloss.Renderer) *Styles {
	profile := r.ColorProfile()
	c := func(s string) lipgloss.TerminalColor { return convert(profile, s) }
	n := r.NewStyle
	s := &Styles{Palette: p, Profile: r.ColorProfile()}
	s.Base = n().Foreground(c(p.Fg))
	s.Muted = n().Foreground(c(p.Muted))
	s.Bold = n().Bold(true).Foreground(c(p.Fg))
	s.Accent = n().Foreground(c(p.Accent)).Bold(true)
	s.TabActive = n().Foreground(c(p.AccentFg)).Background(c(p.Accent)).Bold(true).Padding(0, 1)
	s.TabInactive = n().Foreground(c(p.Muted)).Padding(0, 1)
	s.TabBar = n()
	s.StatusBar = n().Foreground(c(p.Fg)).Background(c(p.CursorBg))
	s.StatusKey = n().Foreground(c(p.AccentFg)).Background(c(p.Accent)).Padding(0, 1)
	s.StatusOK = n().Foreground(c(p.Good)).Background(c(p.CursorBg))
	s.StatusBad = n().Foreground(c(p.Bad)).Background(c(p.CursorBg))
	s.Header = n().Bold(true).Foreground(c(p.Accent)).Underline(true)
	s.Cursor = n().Background(c(p.CursorBg)).Foreground(c(p.Fg))
	if p.BoldCursor {
		s.Cursor = n().Background(c(p.CursorBg)).Foreground(c("#000000")).Bold(true)
	}
	s.Marked = n().Foreground(c(p.Marked))
	s.CursorMarked = s.Cursor.Foreground(c(p.Marked))
	if p.BoldCursor {
		s.CursorMarked = s.Cursor.Underline(true)
	}
	s.Good = n().Foreground(c(p.Good))
	s.Bad = n().Foreground(c(p.Bad))
	s.Warn = n().Foreground(c(p.Warn))
	s.Label = n().Foreground(c(p.Marked)).Bold(true)
	s.Added = n().Foreground(c(p.Added))
	s.Removed = n().Foreground(c(p.Removed))
	s.AddedLine = n().Background(c(p.AddedBg))
	s.RemovedLine = n().Background(c(p.RemovedBg))
	s.WordAdded = n().Background(c(p.WordAddBg)).Bold(true)
	s.WordRemoved = n().Background(c(p.WordDelBg)).Bold(true)
	s.HunkHeader = n().Foreground(c(p.Accent))
	s.FileHeader = n().Bold(true).Foreground(c(p.Fg)).Background(c(p.CursorBg))
	s.LineNo = n().Foreground(c(p.Muted))
	s.Box = n().Border(lipgloss.RoundedBorder()).BorderForeground(c(p.Accent)).Padding(0, 1)
	s.Title = n().Bold(true).Foreground(c(p.Accent))
	s.Error = n().Foreground(c(p.Bad)).Bold(true)
	s.Bar = n().Foreground(c(p.Accent))
	s.BarEmpty = n().Foreground(c(p.Muted))
	s.Key = n().Foreground(c(p.Accent)).Bold(true)
	s.Desc = n().Foreground(c(p.Muted))

	s.Chroma = chromastyles.Get(p.Chroma)
	s.tokens = map[chroma.TokenType]lipgloss.Style{}
	s.wordAdd = map[chroma.TokenType]lipgloss.Style{}
	s.wordDel = map[chroma.TokenType]lipgloss.Style{}
	s.paints = map[paintKey]Paint{}
	for _, tt := range tokenTypes {
		e := s.Chroma.Get(tt)
		st := n()
		if e.Colour.IsSet() {
			st = st.Foreground(c(e.Colour.String()))
		}
		if e.Bold == chroma.Yes {
			st = st.Bold(true)
		}
		if e.Italic == chroma.Yes {
			st = st.Italic(true)
		}
		s.tokens[tt] = st
		s.wordAdd[tt] = st.Background(c(p.WordAddBg)).Bold(true)
		s.wordDel[tt] = st.Background(c(p.WordDelBg)).Bold(true)
	}
	return s
}

// convert turns a hex colour into the profile's own colour once, so that
// rendering never searches for the nearest ANSI colour (which costs more
// than the rest of a frame).
func convert(p termenv.Profile, hex string) lipgloss.TerminalColor {
	if hex == "" {
		return lipgloss.NoColor{}
	}
	switch col := p.Color(hex).(type) {
	case termenv.ANSIColor:
		return lipgloss.Color(strconv.Itoa(int(col)))
	case termenv.ANSI256Color:
		return lipgloss.Color(strconv.Itoa(int(col)))
	case termenv.RGBColor:
		return lipgloss.Color(string(col))
	}
	return lipgloss.NoColor{}
}

// tokenTypes are the chroma categories we colour; finer types fall back to
// their category (see Token).
var tokenTypes = []chroma.TokenType{
	chroma.Keyword, chroma.KeywordType, chroma.KeywordConstant, chroma.Name, chroma.NameFunction, chroma.NameBuiltin,
	chroma.NameClass, chroma.NameTag, chroma.NameAttribute, chroma.Literal, chroma.LiteralString, chroma.LiteralNumber,
	chroma.Operator, chroma.Punctuation, chroma.Comment, chroma.CommentPreproc, chroma.GenericInserted, chroma.GenericDeleted,
	chroma.Text,
}

// Token is the style for a chroma token type (its sub-category, else its
// category, else plain text).
func (s *Styles) Token(tt chroma.TokenType) lipgloss.Style { return lookup(s.tokens, tt) }

// TokenChanged is Token for a word changed within a line (added or removed).
func (s *Styles) TokenChanged(tt chroma.TokenType, added bool) lipgloss.Style {
	if added {
		return lookup(s.wordAdd, tt)
	}
	return lookup(s.wordDel, tt)
}

func lookup(m map[chroma.TokenType]lipgloss.Style, tt chroma.TokenType) lipgloss.Style {
	if st, ok := m[tt]; ok {
		return st
	}
	if st, ok := m[tt.SubCategory()]; ok {
		return st
	}
	if st, ok := m[tt.Category()]; ok {
		return st
	}
	return m[chroma.Text]
}
