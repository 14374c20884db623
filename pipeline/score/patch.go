package score

import (
	"regexp"
	"strconv"
	"strings"

	"curate/pipeline/unidiff"
)

// PatchStats counts a unified diff: files and added/removed lines.
type PatchStats struct {
	Files, Added, Removed int
}

// LOC is added + removed lines.
func (p PatchStats) LOC() int { return p.Added + p.Removed }

// CountPatch counts text as a unified diff (unidiff.Stat); text that holds
// no diff gives zero counts, and a malformed diff counts what comes before
// the fault.
func CountPatch(text string) PatchStats {
	files, _ := unidiff.Stat("patch", text)
	st := PatchStats{Files: len(files)}
	for _, f := range files {
		st.Added += f.Added
		st.Removed += f.Removed
	}
	return st
}

var heredocRe = regexp.MustCompile(`<<-?\s*['"]?([A-Za-z_][A-Za-z0-9_]*)['"]?`)

// EmbeddedDiff returns the diff a shell script carries (typically a
// `git apply <<'EOF'` here-document in solution/solve.sh), or "".
func EmbeddedDiff(script string) string {
	start := strings.Index(script, "diff --git ")
	if start < 0 {
		return ""
	}
	if start > 0 && script[start-1] != '\n' {
		nl := strings.Index(script[start:], "\n")
		if nl < 0 {
			return ""
		}
		return EmbeddedDiff(script[start+nl+1:])
	}
	body := script[start:]
	// The here-document delimiter opened before the diff ends it.
	if m := heredocRe.FindAllStringSubmatch(script[:start], -1); len(m) > 0 {
		delim := m[len(m)-1][1]
		for off := 0; off < len(body); {
			end := strings.IndexByte(body[off:], '\n')
			line := body[off:]
			if end >= 0 {
				line = body[off : off+end]
			}
			if strings.TrimSpace(line) == delim {
				return body[:off]
			}
			if end < 0 {
				break
			}
			off += end + 1
		}
	}
	return body
}

var (
	filesModifiedRe = regexp.MustCompile(`(?i)\b(\d[\d,]*)\s+files?\s+(?:modified|changed)`)
	addDelRe        = regexp.MustCompile(`(?i)\b(\d[\d,]*)\s+additions?\s*(?:\(\+\))?\s*[,;/and ]+\s*(\d[\d,]*)\s+deletions?`)
)

// InstructionStats reads statements like "12 files modified" and
// "340 additions, 25 deletions" from an instruction. Each ok is false
// when the statement is absent.
func InstructionStats(text string) (files int, filesOK bool, added, removed int, linesOK bool) {
	if m := filesModifiedRe.FindStringSubmatch(text); m != nil {
		files, filesOK = atoi(m[1])
	}
	if m := addDelRe.FindStringSubmatch(text); m != nil {
		a, ok1 := atoi(m[1])
		r, ok2 := atoi(m[2])
		if ok1 && ok2 {
			added, removed, linesOK = a, r, true
		}
	}
	return
}

func atoi(s string) (int, bool) {
	v, err := strconv.Atoi(strings.ReplaceAll(s, ",", ""))
	return v, err == nil && v >= 0
}
