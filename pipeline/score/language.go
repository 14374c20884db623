package score

import (
	"path"
	"strings"

	"curate/pipeline/unidiff"
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
	files, _ := unidiff.Stat("patch", patch)
	for _, f := range files {
		lang := extLanguages[strings.ToLower(path.Ext(f.Name()))]
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
