package selection

import (
	"strings"
	"testing"
)

func TestParseQuota(t *testing.T) {
	good := map[string]string{
		"language=go:min=3,max=10":                "language=go min 3 max 10",
		"sdlc_phase=Testing & QA:target=4":        "sdlc_phase=Testing & QA target 4",
		"benchmark=ccb_tac:max_share=0.1":         "benchmark=ccb_tac max_share 0.1",
		"repo=a/b:c:min=1":                        "repo=a/b:c min 1",
		" difficulty = hard : min = 2 , max = 9 ": "difficulty=hard min 2 max 9",
	}
	for in, want := range good {
		q, err := ParseQuota(in)
		if err != nil || QuotaLabel(q) != want {
			t.Errorf("%q: %q, %v; want %q", in, QuotaLabel(q), err, want)
		}
	}
	bad := map[string]string{
		"language=go":             "want DIMENSION=VALUE:min=N",
		"language:min=3":          "before the colon",
		"colour=red:min=1":        `unknown dimension "colour"`,
		"language=go:min=-1":      "must not be negative",
		"language=go:min=5,max=2": "min 5 is above max 2",
		"language=go:min=x":       "not a whole number",
		"language=go:most=3":      `unknown bound "most"`,
		"language=go:max_share=2": "between 0 and 1",
		"language=go:min":         "want NAME=NUMBER",
		"language=:min=1":         "value is empty",
	}
	for in, want := range bad {
		if _, err := ParseQuota(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err %v, want %q", in, err, want)
		}
	}
}

func FuzzParseQuota(f *testing.F) {
	for _, s := range []string{"language=go:min=3,max=10", "repo=a/b:max_share=0.5", "x", ":", "=:=", "language=go:min=1,min=2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := ParseQuota(s)
		if err != nil {
			return
		}
		if err := ValidateQuota(q); err != nil {
			t.Fatalf("%q parsed to an invalid quota: %v", s, err)
		}
		lo, hi := bounds(q, 100)
		if lo < 0 || (q.Min != nil && q.Max != nil && lo > hi) {
			t.Fatalf("%q: bounds %d..%d", s, lo, hi)
		}
	})
}
