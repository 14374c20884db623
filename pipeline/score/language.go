package score

import (
	"path"
	"strings"
)

// extLanguages maps source file extensions to language names.
var extLanguages = map[string]string{
	".py": "python", ".go": "go", ".rs": "rust", ".js": "javascript", ".jsx": "javascript", ".mjs": "javascript",
	".cjs": "javascript", ".ts": "typescript", ".tsx": "typescript", ".java": "java", ".kt": "kotlin", ".c": "c",
	".h": "c", ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".hpp": "cpp", ".cs": "csharp", ".rb": "ruby",
	".php": "php", ".scala": "scala", ".swift": "swift",
}

// LanguageFromPatch is the language most files of a diff are written in
// (by extension), or "" when none is recognised. Ties go to the language
// whose file came first.
func LanguageFromPatch(patch string) string {
	count := map[string]int{}
	var order []string
	for len(patch) > 0 {
		line := patch
		if i := strings.IndexByte(patch, '\n'); i >= 0 {
			line, patch = patch[:i], patch[i+1:]
		} else {
			patch = ""
		}
		if !strings.HasPrefix(line, "diff --git ") {
			continue
		}
		fields := strings.Fields(line)
		lang := extLanguages[strings.ToLower(path.Ext(fields[len(fields)-1]))]
		if lang == "" {
			continue
		}
		if count[lang] == 0 {
			order = append(order, lang)
		}
		count[lang]++
	}
	best := ""
	for _, l := range order {
		if count[l] > count[best] {
			best = l
		}
	}
	return best
}
