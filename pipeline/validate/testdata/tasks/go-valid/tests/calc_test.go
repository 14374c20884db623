package calc

import "testing"

func TestAdd(t *testing.T) {
	if got := Add(2, 1); got != 3 {
		t.Fatalf("Add(2, 1) = %d, want 3", got)
	}
}

func TestMax(t *testing.T) {
	if got := Max(2, 5); got != 5 {
		t.Fatalf("Max(2, 5) = %d, want 5", got)
	}
}
