package sanitize

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestText(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain title", "plain title"},
		{"line1\nline2\tx", "line1\nline2\tx"},
		{"red \x1b[31mtext\x1b[0m", "red text"},
		{"move \x1b[2J\x1b[H cursor", "move  cursor"},
		{"title \x1b]0;pwned\x07 here", "title  here"},
		{"title \x1b]0;pwned\x1b\\ here", "title  here"},
		{"hyperlink \x1b]8;;http://x\x1b\\a\x1b]8;;\x1b\\", "hyperlink a"},
		{"bell\x07 and bs\x08", "bell and bs"},
		{"c1 \u009b31m csi", "c1  csi"},
		{"bidi \u202eevil\u202c", "bidi evil"},
		{"bad \xff utf8", `bad \xff utf8`},
		{"cr progress\r50%\r100%", "cr progress50%100%"},
		{"dangling \x1b", "dangling "},
		{"dcs \x1bPq#0;2;0;0;0\x1b\\ end", "dcs  end"},
		{"unicode ünïcødé 字", "unicode ünïcødé 字"},
		{"nul \x00 byte", "nul \u2400 byte"},
	}
	for _, c := range cases {
		if got := Text(c.in); got != c.want {
			t.Errorf("Text(%q) = %q, want %q", c.in, got, c.want)
		}
		if Safe(c.in) != (c.in == c.want) {
			t.Errorf("Safe(%q) = %v", c.in, Safe(c.in))
		}
	}
	if got := Line("a\nb\tc"); got != "a b c" {
		t.Errorf("Line = %q", got)
	}
}

func FuzzText(f *testing.F) {
	for _, s := range []string{"x\x1b[31m", "\x1b]0;t\x07", "\u009b", "\xff\xfe", "\x1bP", "ok"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Text(s)
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 out of %q", s)
		}
		for _, r := range out {
			if r == 0x1b || (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r <= 0x9f) || isBidiControl(r) {
				t.Fatalf("control %U survived in %q from %q", r, out, s)
			}
		}
		if Text(out) != out {
			t.Fatalf("not idempotent: %q", s)
		}
		if strings.Contains(Line(s), "\n") {
			t.Fatal("Line kept a newline")
		}
	})
}
