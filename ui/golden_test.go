package ui

import (
	"fmt"
	"testing"
)

// TestGoldenViews pins every screen's frame at 80 and 160 columns in two
// themes on the ANSI profile. go test ./ui -run Golden -update rewrites them.
func TestGoldenViews(t *testing.T) {
	screens := []struct {
		name string
		keys []string
	}{
		{"candidates", nil},
		{"task", []string{"enter"}},
		{"diff", []string{"d"}},
		{"diff-side-by-side", []string{"d", "S"}},
		{"help", []string{"?"}},
		{"bulk", []string{"esc", "B", "3"}},
		{"placeholder-runs", []string{"tab", "tab", "tab"}},
	}
	for _, theme := range []string{"dark", "light"} {
		for _, w := range []int{80, 160} {
			for _, sc := range screens {
				name := fmt.Sprintf("%s-%s-%d", sc.name, theme, w)
				t.Run(name, func(t *testing.T) {
					a, _ := newTestApp(t, theme, w, 30)
					press(t, a, "/")
					typeText(t, a, "fixture")
					press(t, a, "enter")
					press(t, a, sc.keys...)
					checkGolden(t, name, a.View())
				})
			}
		}
	}
}
