package app

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"curate/pipeline/sanitize"
)

// CampaignClones are the clone paths given (args) and those listed in the
// file from (one per line, relative to the file, # comments), made
// absolute; a missing one is refused, naming where it was given, before
// anything runs. `curate campaign` and the Jobs screen both read them here.
func CampaignClones(args []string, from string) ([]string, error) {
	type given struct{ path, where string }
	var paths []given
	for _, a := range args {
		paths = append(paths, given{a, "argument"})
	}
	if from != "" {
		f, err := os.Open(from)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for n := 1; sc.Scan(); n++ {
			line := strings.TrimSpace(sc.Text())
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			if !filepath.IsAbs(line) {
				line = filepath.Join(filepath.Dir(from), line)
			}
			paths = append(paths, given{line, fmt.Sprintf("%s:%d", from, n)})
		}
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("%s: %w", from, err)
		}
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("no repositories: give clone paths or a file of them")
	}
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		abs, err := filepath.Abs(p.path)
		if err != nil {
			return nil, err
		}
		if st, err := os.Stat(abs); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("%s: %s: not a clone folder", p.where, sanitize.Line(p.path))
		}
		out = append(out, abs)
	}
	return out, nil
}
