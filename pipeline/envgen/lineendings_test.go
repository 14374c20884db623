package envgen

import "testing"

func TestCRLFCheckoutReadsGitattributes(t *testing.T) {
	for _, c := range []struct {
		attrs string
		want  bool
	}{
		{"*.sln text eol=crlf\n", true},
		{"* text eol=lf\n*.vcxproj* text eol=crlf\n", true},
		{"*.bat crlf\n", true},
		{"*.c -crlf\n*.h text\n", false},
		{"# *.sln eol=crlf\n* text=auto\n", false},
		{"*.txt eol=crlfx\n", false},
	} {
		tr := MapTree("o/n", map[string]string{"sub/.gitattributes": c.attrs, "a.c": ""})
		if got := crlfCheckout(tr); got != c.want {
			t.Errorf("%q: crlfCheckout = %v, want %v", c.attrs, got, c.want)
		}
	}
}
