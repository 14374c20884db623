package score

import (
	"regexp"
	"strconv"
	"strings"
)

// PatchStats counts a unified diff: files (one per `diff --git` header, or
// per `+++` header in a plain diff) and added/removed lines. Hunk headers
// give line counts, so a removed line that reads "-- x" or an added "++ y"
// is never mistaken for a file header.
type PatchStats struct {
	Files, Added, Removed int
}

// LOC is added + removed lines.
func (p PatchStats) LOC() int { return p.Added + p.Removed }

// CountPatch counts text as a unified diff; text that holds no diff gives
// zero counts.
func CountPatch(text string) PatchStats {
	var st PatchStats
	gitFiles, plainFiles := 0, 0
	oldLeft, newLeft := 0, 0 // lines left in the current hunk
	for len(text) > 0 {
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		line = strings.TrimSuffix(line, "\r")
		if oldLeft > 0 || newLeft > 0 {
			switch {
			case strings.HasPrefix(line, "+"):
				st.Added++
				newLeft--
				continue
			case strings.HasPrefix(line, "-"):
				st.Removed++
				oldLeft--
				continue
			case strings.HasPrefix(line, " ") || line == "":
				oldLeft--
				newLeft--
				continue
			case strings.HasPrefix(line, `\`):
				continue
			}
			oldLeft, newLeft = 0, 0 // a short hunk: fall through to headers
		}
		switch {
		case strings.HasPrefix(line, "diff --git "):
			gitFiles++
		case strings.HasPrefix(line, "+++ "):
			plainFiles++
		case strings.HasPrefix(line, "@@ "):
			oldLeft, newLeft = hunkCounts(line)
		}
	}
	st.Files = gitFiles
	if gitFiles == 0 {
		st.Files = plainFiles
	}
	return st
}

// hunkCounts reads "@@ -a,b +c,d @@" (a count of 1 may be omitted).
func hunkCounts(line string) (int, int) {
	fields := strings.Fields(line)
	if len(fields) < 3 {
		return 0, 0
	}
	count := func(s, sign string) int {
		if !strings.HasPrefix(s, sign) {
			return 0
		}
		_, n, found := strings.Cut(s[1:], ",")
		if !found {
			return 1
		}
		v, err := strconv.Atoi(n)
		if err != nil || v < 0 {
			return 0
		}
		return v
	}
	return count(fields[1], "-"), count(fields[2], "+")
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
