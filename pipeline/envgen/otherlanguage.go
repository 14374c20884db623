package envgen

import (
	"path"
	"strings"
)

// otherLanguage is a language curate has no builder for, known by its
// source extension and the build files a project in it has.
type otherLanguage struct {
	name       string
	buildFiles []string // base names, or extensions (".csproj")
}

var otherLanguages = map[string]otherLanguage{
	".swift": {"Swift", []string{"Package.swift"}},
	".cs":    {"C#", []string{".csproj", ".sln"}},
	".rb":    {"Ruby", []string{"Gemfile", ".gemspec"}},
	".php":   {"PHP", []string{"composer.json"}},
	".dart":  {"Dart", []string{"pubspec.yaml"}},
}

// OtherLanguageOfTests is the name of a language curate has no builder
// for when every one of the PR's test files is its source and the tree has
// its build file; "" otherwise. A multi-language project's Swift PR went
// to the JavaScript builder its root package.json named, which refused it
// for a test script it did not know; the reason to give is the language.
// A Ruby fixture under a Python project's tests, with no Gemfile, is not.
func OtherLanguageOfTests(tree, tests []string) string {
	lang := ""
	for _, f := range tests {
		l, ok := otherLanguages[strings.ToLower(path.Ext(f))]
		if !ok || (lang != "" && l.name != lang) {
			return ""
		}
		lang = l.name
	}
	if lang == "" {
		return ""
	}
	for _, l := range otherLanguages {
		if l.name != lang {
			continue
		}
		for _, f := range tree {
			for _, b := range l.buildFiles {
				if path.Base(f) == b || (strings.HasPrefix(b, ".") && path.Ext(f) == b) {
					return lang
				}
			}
		}
	}
	return ""
}
