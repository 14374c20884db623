package statement

import (
	"sort"

	"curate/pipeline/unidiff"
)

// ChangedDecls are the public declarations whose bodies the fix changes:
// for each added line of a source file, the declaration nearest above it
// in the fixed file. Their doc comments are the contract the fix keeps
// (DocComments); only names are taken, never the changed lines.
func ChangedDecls(fix []unidiff.File, files Files) []Decl {
	if files.Fixed == nil {
		return nil
	}
	var out []Decl
	seen := map[string]bool{}
	for _, f := range fix {
		lang := languageOf(f.Name())
		scan := scannerFor(lang)
		if scan == nil || f.Binary || f.NewName == "/dev/null" {
			continue
		}
		added := addedLines(f)
		src, err := files.Fixed(f.Name())
		if err != nil || len(src) > maxSource || len(added) == 0 {
			continue
		}
		ds, err := scan(f.Name(), src)
		if err != nil || len(ds) == 0 {
			continue
		}
		sort.Slice(ds, func(i, j int) bool { return ds[i].Line < ds[j].Line })
		lines := make([]int, 0, len(added))
		for line := range added {
			lines = append(lines, line)
		}
		sort.Ints(lines) // map order would make two builds of the same files differ
		for _, line := range lines {
			i := sort.Search(len(ds), func(i int) bool { return ds[i].Line > line }) - 1
			if i < 0 || seen[f.Name()+"\x00"+ds[i].Name] {
				continue
			}
			seen[f.Name()+"\x00"+ds[i].Name] = true
			d := ds[i].Decl
			d.Language = lang
			out = append(out, d)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].File < out[j].File })
	return out
}
