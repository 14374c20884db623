package statement

import (
	"path"
	"sort"
	"strings"

	"curate/pipeline/unidiff"
)

// maxSource caps the size of a file the scanners read: a generated file
// of megabytes says nothing an agent would read.
const maxSource = 2 << 20

// decl is a declaration a scanner found, with the line its name is on.
type decl struct {
	Decl
	Line int
}

// scanner reads one language's declarations from a file's text.
type scanner func(file string, src []byte) ([]decl, error)

// languageOf maps an extension to its scanner's language.
func languageOf(p string) string {
	switch strings.ToLower(path.Ext(p)) {
	case ".go":
		return "go"
	case ".py", ".pyi":
		return "python"
	case ".js", ".mjs", ".cjs", ".jsx":
		return "javascript"
	case ".ts", ".tsx", ".mts", ".cts":
		return "typescript"
	case ".rs":
		return "rust"
	case ".java":
		return "java"
	case ".c", ".h":
		return "c"
	case ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx", ".h++", ".ipp":
		return "cpp"
	}
	return ""
}

func scannerFor(lang string) scanner {
	switch lang {
	case "go":
		return scanGo
	case "python":
		return scanPython
	case "javascript", "typescript":
		return func(f string, b []byte) ([]decl, error) { return scanBraces(f, b, jsLang(lang)) }
	case "rust":
		return func(f string, b []byte) ([]decl, error) { return scanBraces(f, b, rustLang) }
	case "java":
		return func(f string, b []byte) ([]decl, error) { return scanBraces(f, b, javaLang) }
	case "c", "cpp":
		return func(f string, b []byte) ([]decl, error) { return scanBraces(f, b, cLang(lang)) }
	}
	return nil
}

// Interface lists the public names the fix adds or changes (a
// declaration whose name line is an added line of the fixed file) that
// the tests' added lines use, with their signatures from the fixed source.
// used is every such name, listed or not (a name whose file would not
// parse is still used). Files reads the fixed and the base versions; a
// declaration the base already had with the same signature (moved code)
// is not new.
func Interface(fix, tests []unidiff.File, files Files) (decls []Decl, used []string, err error) {
	read := files.Fixed
	if read == nil {
		return nil, nil, nil
	}
	words := testWords(tests)
	if len(words) == 0 {
		return nil, nil, nil
	}
	seen := map[string]bool{}
	old := files.baseSignatures(fix)
	fix = headersFirst(fix)
	cpp := false
	for _, f := range fix {
		cpp = cpp || languageOf(f.Name()) == "cpp"
	}
	for _, f := range fix {
		lang := languageOf(f.Name())
		if lang == "c" && cpp && strings.HasSuffix(f.Name(), ".h") {
			lang = "cpp" // a C++ project's header
		}
		scan := scannerFor(lang)
		if scan == nil || f.Binary || f.NewName == "/dev/null" {
			continue
		}
		added := addedLines(f)
		if len(added) == 0 {
			continue
		}
		src, err := read(f.Name())
		if err != nil || len(src) > maxSource {
			continue // unreadable (a submodule, a missing blob) or huge: no names from it
		}
		ds, err := scan(f.Name(), src)
		if err != nil {
			continue // a file its scanner cannot read gives no names
		}
		for _, d := range ds {
			if !added[d.Line] || !words[d.Name] {
				continue
			}
			if old[f.OldName+"\x00"+collapse(d.Signature)] {
				continue
			}
			key := lang + "\x00" + d.Container + "\x00" + collapse(d.Signature)
			if lang == "c" {
				key = lang + "\x00" + d.Name // a header's prototype and its definition
			}
			if seen[key] {
				continue
			}
			seen[key] = true
			d.Language = lang
			decls = append(decls, d.Decl)
			used = append(used, d.Name)
		}
	}
	return decls, dedupe(used), nil
}

// Files reads a changed file at the fix (Fixed) and before it (Base).
type Files struct {
	Fixed, Base func(path string) ([]byte, error)
}

// baseSignatures are the signatures the fix's files declared before it,
// by file (two nested Builder classes may declare the same method).
func (fs Files) baseSignatures(fix []unidiff.File) map[string]bool {
	out := map[string]bool{}
	if fs.Base == nil {
		return out
	}
	for _, f := range fix {
		name := f.OldName
		lang := languageOf(name)
		scan := scannerFor(lang)
		if scan == nil || name == "/dev/null" || f.Binary {
			continue
		}
		src, err := fs.Base(name)
		if err != nil || len(src) > maxSource {
			continue
		}
		ds, err := scan(name, src)
		if err != nil {
			continue
		}
		for _, d := range ds {
			out[name+"\x00"+collapse(d.Signature)] = true
		}
	}
	return out
}

// headersFirst orders C and C++ headers before sources, so a function's
// prototype is listed rather than its definition.
func headersFirst(fix []unidiff.File) []unidiff.File {
	out := append([]unidiff.File{}, fix...)
	isHeader := func(p string) bool {
		switch strings.ToLower(path.Ext(p)) {
		case ".h", ".hpp", ".hh", ".hxx":
			return true
		}
		return false
	}
	sort.SliceStable(out, func(i, j int) bool { return isHeader(out[i].Name()) && !isHeader(out[j].Name()) })
	return out
}

func dedupe(xs []string) []string {
	sort.Strings(xs)
	out := xs[:0]
	for i, x := range xs {
		if i == 0 || x != xs[i-1] {
			out = append(out, x)
		}
	}
	return out
}

func addedLines(f unidiff.File) map[int]bool {
	out := map[int]bool{}
	for _, h := range f.Hunks {
		for _, l := range h.Lines {
			if l.Kind == unidiff.Added {
				out[l.NewNo] = true
			}
		}
	}
	return out
}

// testWords are the identifiers on the tests' added lines.
func testWords(tests []unidiff.File) map[string]bool {
	out := map[string]bool{}
	for _, f := range tests {
		for _, h := range f.Hunks {
			for _, l := range h.Lines {
				if l.Kind == unidiff.Added {
					for _, w := range identifiers(l.Text) {
						out[w] = true
					}
				}
			}
		}
	}
	return out
}

// identifiers splits s into identifier-like words.
func identifiers(s string) []string {
	var out []string
	start := -1
	for i := 0; i <= len(s); i++ {
		if i < len(s) && isIdent(s[i], start >= 0) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			out = append(out, s[start:i])
			start = -1
		}
	}
	return out
}

func isIdent(c byte, inside bool) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80 || inside && c >= '0' && c <= '9'
}

// TestNames are the test functions the tests' added lines declare (Go's
// TestX, Python's test_x, JS it("...") titles are not names and are left).
func TestNames(tests []unidiff.File) []string {
	var out []string
	for w := range testWords(tests) {
		lw := strings.ToLower(w)
		if len(w) > 4 && (strings.HasPrefix(lw, "test") || strings.HasSuffix(lw, "_test") || strings.HasSuffix(w, "Test")) {
			out = append(out, w)
		}
	}
	sort.Strings(out)
	return out
}
