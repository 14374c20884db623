package pipeline

import (
	"slices"
	"testing"
)

func TestCompareIDs(t *testing.T) {
	ids := []string{"google__go-cmp-105", "google__go-cmp-2", "google__go-cmp-10", "google__go-cmp-1", "a-01", "a-1", "a-1b", "a-1a", "b", "a", "c_x_expert_020", "c_x_expert_0100"}
	slices.SortFunc(ids, CompareIDs)
	want := []string{"a", "a-01", "a-1", "a-1a", "a-1b", "b", "c_x_expert_020", "c_x_expert_0100", "google__go-cmp-1", "google__go-cmp-2", "google__go-cmp-10", "google__go-cmp-105"}
	if !slices.Equal(ids, want) {
		t.Errorf("order %q\nwant  %q", ids, want)
	}
	for _, p := range [][2]string{{"x-9", "x-10"}, {"a", "a-1"}, {"a-01", "a-1"}} {
		if CompareIDs(p[0], p[1]) >= 0 || CompareIDs(p[1], p[0]) <= 0 {
			t.Errorf("%q must come before %q", p[0], p[1])
		}
	}
	if CompareIDs("same-12", "same-12") != 0 {
		t.Error("an id equals itself")
	}
}

// FuzzCompareIDs: the order is antisymmetric and 0 only for equal ids.
func FuzzCompareIDs(f *testing.F) {
	f.Add("go-cmp-10", "go-cmp-9")
	f.Add("a-01", "a-1")
	f.Fuzz(func(t *testing.T, a, b string) {
		ab, ba := CompareIDs(a, b), CompareIDs(b, a)
		if ab != -ba || (ab == 0) != (a == b) {
			t.Errorf("CompareIDs(%q, %q) = %d, reversed %d", a, b, ab, ba)
		}
	})
}
