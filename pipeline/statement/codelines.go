package statement

import "curate/pipeline/unidiff"

// goLex is Go's comment and string syntax for codeLines (raw strings in
// backquotes, as JS templates without interpolation).
var goLex = lexConfig{line: "//", block: true, charQuote: true, template: true}

// CodeLines are, per fix file, the lines of the fixed file that hold
// code: not blank, not only a comment, not only a Python docstring. The
// leak check reads only these, so documentation the fix adds (a JSDoc
// block with examples, a docstring) may be quoted; a file the lexer cannot
// read is left out and every line of it counts.
func CodeLines(fix []unidiff.File, files Files) map[string]map[int]bool {
	if files.Fixed == nil {
		return nil
	}
	out := map[string]map[int]bool{}
	for _, f := range fix {
		lang := languageOf(f.Name())
		c, ok := lexConfigOf(lang)
		if lang == "go" {
			c, ok = goLex, true
		}
		if !ok || f.Binary || f.NewName == "/dev/null" || len(addedLines(f)) == 0 {
			continue
		}
		src, err := files.Fixed(f.Name())
		if err != nil || len(src) > maxSource {
			continue
		}
		toks, err := lex(f.Name(), src, c)
		if err != nil {
			continue
		}
		lines := map[int]bool{}
		for i, t := range toks {
			alone := t.first && (i+1 == len(toks) || toks[i+1].first)
			if lang == "python" && t.kind == 's' && alone {
				continue // a docstring, or a string standing alone
			}
			lines[t.line] = true
		}
		out[f.Name()] = lines
	}
	return out
}
