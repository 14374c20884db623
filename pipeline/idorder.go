package pipeline

// CompareIDs orders task ids as a curator reads them: runs of digits by
// their value, so acme__calc-2 comes before acme__calc-10 (plain string
// order put google__go-cmp-10 and -105 between -1 and -2). Equal values
// with different zero padding fall back to string order.
func CompareIDs(a, b string) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if isDigit(a[i]) && isDigit(b[j]) {
			si, sj := i, j
			for i < len(a) && isDigit(a[i]) {
				i++
			}
			for j < len(b) && isDigit(b[j]) {
				j++
			}
			na, nb := trimZeros(a[si:i]), trimZeros(b[sj:j])
			if len(na) != len(nb) {
				return cmpInt(len(na), len(nb))
			}
			if na != nb {
				if na < nb {
					return -1
				}
				return 1
			}
			continue
		}
		if a[i] != b[j] {
			return cmpInt(int(a[i]), int(b[j]))
		}
		i++
		j++
	}
	switch {
	case len(a)-i != len(b)-j:
		return cmpInt(len(a)-i, len(b)-j)
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func trimZeros(s string) string {
	for len(s) > 1 && s[0] == '0' {
		s = s[1:]
	}
	return s
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
