package export

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// MarkerFile is written into every folder an export writes to. It lists
// what curate wrote there, one "FORMAT NAME" a line, so that a later export
// replaces only those entries and never a file the curator put there.
const MarkerFile = ".curate-export"

const markerHeader = "# Written by curate export: what it wrote into this folder (format name).\n# A later export here replaces only these; everything else is left alone.\n"

// marker maps an entry name to the format that wrote it.
type marker map[string]string

// readMarker reads dest's marker; ok is false when there is none.
func readMarker(dest string) (m marker, ok bool, err error) {
	path := filepath.Join(dest, MarkerFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return marker{}, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("export: %w", err)
	}
	m = marker{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		format, name, _ := strings.Cut(text, " ")
		if !knownFormat(format) || !safeEntry(name) {
			return nil, false, fmt.Errorf("export: %s:%d: want \"FORMAT NAME\" with a known format and a plain file name, got %q; fix or remove the line", path, line, text)
		}
		m[name] = format
	}
	if err := sc.Err(); err != nil {
		return nil, false, fmt.Errorf("export: %s: %w", path, err)
	}
	return m, true, nil
}

func (m marker) text() []byte {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString(markerHeader)
	for _, n := range names {
		fmt.Fprintf(&b, "%s %s\n", m[n], n)
	}
	return []byte(b.String())
}

func knownFormat(f string) bool {
	for _, k := range Formats {
		if k == f {
			return true
		}
	}
	return false
}

// safeEntry is a name directly inside the folder: never a path, "." or
// "..", nor the marker itself.
func safeEntry(name string) bool {
	return name != "" && name != "." && name != ".." && name != MarkerFile && !strings.ContainsAny(name, "/\\\x00")
}

// checkOwned refuses an export into dest that would replace an entry
// curate did not write: a harbor dataset needs dest missing, empty, or a
// previous export's folder, and no entry it writes may be foreign; a
// single file may land beside anything but a foreign file of its name.
// It returns dest's marker (empty when none).
func checkOwned(dest, format string, names []string) (marker, error) {
	m, ok, err := readMarker(dest)
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dest)
	if errors.Is(err, fs.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	if format == "harbor" && !ok {
		for _, e := range entries {
			if !strings.HasPrefix(e.Name(), ".") { // .git, .gitignore: a fresh repository counts as empty
				return nil, fmt.Errorf("export: %s is not empty and holds no earlier curate export (no %s); an export replaces only what curate wrote: give an empty or new folder", dest, MarkerFile)
			}
		}
	}
	present := map[string]bool{}
	for _, e := range entries {
		present[e.Name()] = true
	}
	for _, n := range names {
		if present[n] && m[n] == "" {
			return nil, fmt.Errorf("export: %s already holds %s, which curate did not write (it is not in %s); move it or give another folder", dest, n, MarkerFile)
		}
	}
	return m, nil
}
