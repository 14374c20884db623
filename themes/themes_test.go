package themes

import (
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/muesli/termenv"
)

func TestChoose(t *testing.T) {
	cases := []struct {
		flag, config string
		dark         bool
		want         string
		err          bool
	}{
		{"", "", true, "dark", false},
		{"", "", false, "light", false},
		{"", "high-contrast", false, "high-contrast", false},
		{"light", "dark", true, "light", false},
		{"neon", "", true, "", true},
		{"", "solarized", true, "", true},
	}
	for _, c := range cases {
		got, err := Choose(c.flag, c.config, c.dark)
		if (err != nil) != c.err || got != c.want {
			t.Errorf("Choose(%q,%q,%v) = %q, %v; want %q (err %v)", c.flag, c.config, c.dark, got, err, c.want, c.err)
		}
	}
}

func TestBuildEveryTheme(t *testing.T) {
	for _, name := range Names {
		p, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		s := Build(p, NewRenderer(termenv.ANSI256, true))
		if s.Chroma == nil || s.Chroma.Name != p.Chroma {
			t.Errorf("%s: chroma style %v, want %s", name, s.Chroma, p.Chroma)
		}
		if got := s.Token(chroma.KeywordNamespace).Render("x"); got == "x" && name != "high-contrast" {
			t.Errorf("%s: keyword not styled", name)
		}
		if got := s.Cursor.Render("row"); got == "row" {
			t.Errorf("%s: cursor not styled under ANSI256", name)
		}
	}
}

func TestAsciiProfileDropsColour(t *testing.T) {
	p, _ := Lookup("dark")
	s := Build(p, NewRenderer(termenv.Ascii, true))
	if got := s.Cursor.Render("row"); got != "row" {
		t.Errorf("Ascii profile rendered %q", got)
	}
}

func TestNoColor(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	if NoColor() {
		t.Error("NO_COLOR empty counts as set")
	}
	t.Setenv("NO_COLOR", "1")
	if !NoColor() {
		t.Error("NO_COLOR=1 ignored")
	}
}

func TestPaintMatchesStyle(t *testing.T) {
	p, _ := Lookup("light")
	s := Build(p, NewRenderer(termenv.ANSI, false))
	for _, tt := range []chroma.TokenType{chroma.Keyword, chroma.NameFunction, chroma.LiteralString, chroma.Text} {
		for _, mode := range []int8{-1, 0, 1} {
			var want string
			switch mode {
			case 0:
				want = s.Token(tt).Render("abc")
			default:
				want = s.TokenChanged(tt, mode == 1).Render("abc")
			}
			if got := s.TokenPaint(tt, mode).Render("abc"); got != want {
				t.Errorf("%v/%d: paint %q, style %q", tt, mode, got, want)
			}
		}
	}
}
