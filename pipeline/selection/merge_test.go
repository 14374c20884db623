package selection

import (
	"reflect"
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
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := MergeQuotas(tc.profile, tc.overrides); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}
