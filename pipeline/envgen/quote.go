package envgen

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// ShellQuote quotes s for bash: single quotes for printable UTF-8, else
// $'...' with \xNN escapes (git allows any bytes in file names).
func ShellQuote(s string) string {
	plain := utf8.ValidString(s)
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			plain = false
		}
	}
	if plain {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c < 0x7f && c != '\'' && c != '\\' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, `\x%02x`, c)
		}
	}
	b.WriteString("'")
	return b.String()
}
