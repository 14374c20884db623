package envgen

import (
	"path"
	"regexp"
	"strings"
)

// crlfAttrRe is a .gitattributes setting that checks files out with CRLF
// (eol=crlf, or the older crlf); -crlf and -text turn conversion off.
var crlfAttrRe = regexp.MustCompile(`(^|\s)(eol=crlf|crlf)(\s|$)`)

// crlfCheckout says whether a .gitattributes of the tree checks some files
// out with CRLF line endings. The repository's archive has those files as
// a checkout does (CRLF) while the PR's diff has LF, so the task layer
// applies bug.patch where git reads those attributes: a compression
// library's Visual Studio project files made every PR that touched them
// "patch does not apply".
func crlfCheckout(tr *Tree) bool {
	for _, f := range tr.Files {
		if path.Base(f) != ".gitattributes" {
			continue
		}
		for _, line := range strings.Split(tr.Text(f), "\n") {
			if line = strings.TrimSpace(line); !strings.HasPrefix(line, "#") && crlfAttrRe.MatchString(line) {
				return true
			}
		}
	}
	return false
}
