package store

import (
	"reflect"
	"testing"

	"curate/pipeline"
)

func TestFeatureCodecRoundTrip(t *testing.T) {
	cases := []pipeline.Features{
		{},
		{Values: map[string]float64{"files_changed": 3, "context_length": 1.16e6, "code_ratio": 0.79}, Sources: map[string]string{"files_changed": "solution/fix.patch", "context_length": "task.toml", "code_ratio": ""}},
		{Values: map[string]float64{"odd\tname\n": -1.5}, Sources: map[string]string{"odd\tname\n": `C:\path\with\tab`}},
		{Values: map[string]float64{"files_changed": 2, "loc_changed": 7}, Sources: map[string]string{"files_changed": "patch", "language": "file extensions"}},
	}
	for _, f := range cases {
		var got pipeline.Features
		if err := decodeFeatures(encodeFeatures(f), &got); err != nil {
			t.Fatal(err)
		}
		if len(f.Values) == 0 && len(got.Values) == 0 && len(f.Sources) == 0 && len(got.Sources) == 0 {
			continue
		}
		if !reflect.DeepEqual(f, got) {
			t.Errorf("round trip: %+v != %+v", got, f)
		}
	}
	var legacy pipeline.Features
	if err := decodeFeatures(`{"values":{"a":1},"sources":{"a":"x"}}`, &legacy); err != nil || legacy.Values["a"] != 1 {
		t.Fatalf("legacy JSON: %v %+v", err, legacy)
	}
}

func TestBreakdownCodecRoundTrip(t *testing.T) {
	cases := []pipeline.ScoreBreakdown{
		{},
		{ContextComplexity: 0.94, CrossFileDeps: 0.75, SemanticSearchPotential: 0.89, TaskCategoryWeight: 0.95,
			Rules: map[string]string{"context_complexity": "largerepo default 0.95", "cross_file_deps": "files_count/20\twith tab"}},
		{TaskCategoryWeight: 0.5},
	}
	for _, b := range cases {
		var got pipeline.ScoreBreakdown
		if err := decodeBreakdown(encodeBreakdown(b), &got); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(b, got) {
			t.Errorf("round trip: %+v != %+v", got, b)
		}
	}
}

func FuzzDecodeFeatures(f *testing.F) {
	f.Add("a\t1\tx\n")
	f.Add("a\tnan\t\n")
	f.Add("{}")
	f.Fuzz(func(t *testing.T, s string) {
		var feat pipeline.Features
		if decodeFeatures(s, &feat) != nil {
			return
		}
		var again pipeline.Features
		if err := decodeFeatures(encodeFeatures(feat), &again); err != nil {
			t.Fatalf("re-decode of %q: %v", s, err)
		}
	})
}
