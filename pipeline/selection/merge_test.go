package selection

import (
	"reflect"
	"strings"
	"testing"

	"curate/pipeline"
)

func TestMergeQuotas(t *testing.T) {
	n := func(v int) *int { return &v }
	lang := pipeline.Quota{Dimension: "language", Value: "go", Min: n(3)}
	phase := pipeline.Quota{Dimension: "sdlc_phase", Value: "Testing", Max: n(4)}
	tests := []struct {
		name               string
		profile, overrides []pipeline.Quota
		want               []pipeline.Quota
	}{
		{"none", nil, nil, nil},
		{"added", []pipeline.Quota{lang}, []pipeline.Quota{phase}, []pipeline.Quota{lang, phase}},
		{"replaced", []pipeline.Quota{lang, phase}, []pipeline.Quota{{Dimension: "language", Value: "go", Min: n(7)}},
			[]pipeline.Quota{{Dimension: "language", Value: "go", Min: n(7)}, phase}},
		{"two overrides of one value both stay", nil, []pipeline.Quota{lang, lang}, []pipeline.Quota{lang, lang}},
		{"removed", []pipeline.Quota{lang, phase}, []pipeline.Quota{{Dimension: "language", Value: "go", Remove: true}},
			[]pipeline.Quota{phase}},
		{"removing what the profile lacks is a no-op", []pipeline.Quota{phase}, []pipeline.Quota{{Dimension: "language", Value: "go", Remove: true}},
			[]pipeline.Quota{phase}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := MergeQuotas(tc.profile, tc.overrides); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestRemoveQuotaValidation(t *testing.T) {
	n := 2
	if err := ValidateQuota(pipeline.Quota{Dimension: "language", Value: "go", Remove: true}); err != nil {
		t.Errorf("a bare removal: %v", err)
	}
	err := ValidateQuota(pipeline.Quota{Dimension: "language", Value: "go", Remove: true, Min: &n})
	if err == nil || !strings.Contains(err.Error(), "cannot carry bounds") {
		t.Errorf("a removal with a bound: %v", err)
	}
}
