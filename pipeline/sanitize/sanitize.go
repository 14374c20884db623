// Package sanitize makes untrusted text (PR titles, bodies, file names,
// patches, logs) safe to put on a terminal: escape sequences, control
// characters and bidirectional overrides are removed, invalid UTF-8 is
// replaced, so crafted text cannot move the cursor, retitle the window or
// hide what it says.
package sanitize

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// NULPlaceholder is what a NUL byte is shown as (U+2400 SYMBOL FOR NULL).
const NULPlaceholder = "\u2400"

// Text strips control sequences and characters, keeping newlines and tabs.
func Text(s string) string { return clean(s, true) }

// Line is Text for one line: newlines and tabs become spaces.
func Line(s string) string { return clean(s, false) }

// Safe reports whether s would pass through Text unchanged; it lets hot
// paths skip the copy.
func Safe(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 && c != '\n' && c != '\t' || c == 0x7f || c >= 0x80 {
			return isCleanSlow(s)
		}
	}
	return true
}

func isCleanSlow(s string) bool { return clean(s, true) == s }

func clean(s string, multiline bool) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == 0x1b: // ESC: skip the whole sequence
			i = skipEscape(s, i)
			continue
		case c == '\n' || c == '\t':
			if multiline {
				b.WriteByte(c)
			} else {
				b.WriteByte(' ')
			}
			i++
			continue
		case c == '\r':
			i++
			continue
		case c == 0: // shown, not dropped: a NUL in a task's text is content
			b.WriteString(NULPlaceholder)
			i++
			continue
		case c < 0x20 || c == 0x7f:
			i++
			continue
		case c < 0x80:
			b.WriteByte(c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			// Kept as the byte it is, shown escaped: the stored text is unchanged.
			fmt.Fprintf(&b, "\\x%02x", c)
		case r >= 0x80 && r <= 0x9f: // C1 controls, including 8-bit CSI
			if r == 0x9b || r == 0x9d || r == 0x90 {
				i = skipSequenceBody(s, i+size, r)
				continue
			}
		case isBidiControl(r):
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// skipEscape returns the index after the escape sequence starting at i.
func skipEscape(s string, i int) int {
	i++ // ESC
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '[': // CSI ... final byte 0x40-0x7e
		return skipSequenceBody(s, i+1, 0x9b)
	case ']', 'P', '_', '^', 'X': // OSC, DCS, APC, PM, SOS: until BEL or ST
		return skipSequenceBody(s, i+1, 0x9d)
	default:
		// Two-byte sequences (ESC c, ESC 7, ESC ( B ...).
		if s[i] >= 0x20 && s[i] <= 0x2f && i+1 < len(s) {
			return i + 2
		}
		return i + 1
	}
}

func skipSequenceBody(s string, i int, kind rune) int {
	if kind == 0x9b { // CSI: parameters and intermediates, then a final byte
		for i < len(s) {
			c := s[i]
			i++
			if c >= 0x40 && c <= 0x7e {
				return i
			}
			if c < 0x20 || c > 0x7e {
				return i
			}
		}
		return i
	}
	for i < len(s) { // string sequences end at BEL, ST (ESC \) or 0x9c
		if s[i] == 0x07 {
			return i + 1
		}
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\' {
			return i + 2
		}
		if r, size := utf8.DecodeRuneInString(s[i:]); r == 0x9c {
			return i + size
		}
		i++
	}
	return i
}

func isBidiControl(r rune) bool {
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f || r == 0x061c
}
