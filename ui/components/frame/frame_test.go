package frame

import "testing"

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
