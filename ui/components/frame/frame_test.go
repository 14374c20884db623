package frame

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTruncateMiddleKeepsValuesApart(t *testing.T) {
	seen := map[string]string{}
	for _, v := range []string{"Implementation (feature)", "Implementation (bug fix)", "Implementation (refactoring)"} {
		got := TruncateMiddle(v, 16)
		if w := len([]rune(got)); w != 16 {
			t.Errorf("%q → %q: %d cells", v, got, w)
		}
		if other, ok := seen[got]; ok {
			t.Errorf("%q and %q both read %q", v, other, got)
		}
		seen[got] = v
	}
	if got := TruncateMiddle("short", 16); got != "short" {
		t.Errorf("a short value changed: %q", got)
	}
}

func TestCleanLineIsBounded(t *testing.T) {
	long := strings.Repeat("é", 1<<20) // 2 MB of two-byte runes
	got := CleanLine(long)
	if len(got) > LineCap+len("…") || !utf8.ValidString(got) {
		t.Errorf("a 2 MB line became %d bytes (valid UTF-8: %v)", len(got), utf8.ValidString(got))
	}
	if got := CutBytes("aé", 2); got != "a" {
		t.Errorf("CutBytes split a rune: %q", got)
	}
}
