package calc

// Add returns a+b.
func Add(a, b int) int { return a + b }

// Max returns the larger of a and b.
func Max(a, b int) int {
	if a > b {
		return a
	}
	return b
}
