package source

import (
	"path"
	"regexp"
	"sort"
	"strings"
	"time"

	"curate/pipeline"
	"curate/pipeline/sanitize"
)

// Benchmark is the benchmark name mined candidates are filed under.
const Benchmark = "mined"

// Task turns a filtered PR into a candidate task. reasons are every
// filter it failed (none = candidate). sourceKind is "git" or "github",
// sourcePath the clone it was mined from (builds read it).
func (pr *PR) Task(sourceKind, sourcePath string, reasons []string) *pipeline.Task {
	t := &pipeline.Task{
		ID:         TaskID(pr.Repo, pr.Number),
		Benchmark:  Benchmark,
		Source:     sourceKind,
		SourcePath: sourcePath,
		Repo:       pr.Repo,
		PR:         pr.Number,
		BaseCommit: pr.BaseCommit,
		HeadCommit: pr.HeadCommit,
		Title:      sanitize.Line(pr.Title),
		Body:       sanitize.Text(pr.Body),
		Language:   LanguageOf(pr.Files),
		Category:   Category(pr.Title),
		Status:     pipeline.StatusCandidate,
		Reasons:    reasons,
		CreatedAt:  pr.MergedAt,
	}
	if len(reasons) > 0 {
		t.Status = pipeline.StatusRejected
	}
	var nSrc, nTest, added, removed int
	files := make([]map[string]any, 0, len(pr.Files))
	for _, f := range pr.Files {
		if f.Test {
			nTest++
		} else {
			nSrc++
			added += f.Added
			removed += f.Removed
		}
		m := map[string]any{"path": DisplayPath(f.Path), "added": f.Added, "removed": f.Removed}
		if f.OldPath != "" {
			m["old_path"] = DisplayPath(f.OldPath)
		}
		if f.Binary {
			m["binary"] = true
		}
		if f.Test {
			m["test"] = true
		}
		files = append(files, m)
	}
	src := "git numstat"
	if sourceKind == "github" {
		src = "github files"
	}
	t.Features.Set(pipeline.FeatFilesChanged, float64(nSrc), src)
	t.Features.Set(pipeline.FeatLinesAdded, float64(added), src)
	t.Features.Set(pipeline.FeatLinesRemoved, float64(removed), src)
	t.Features.Set(pipeline.FeatLOCChanged, float64(added+removed), src)
	t.Features.Set(pipeline.FeatTestFiles, float64(nTest), src)
	issues := make([]string, len(pr.Issues))
	for i, r := range pr.Issues {
		issues[i] = r.String()
	}
	t.Extra = map[string]any{
		"files":         files,
		"linked_issues": issues,
		"merge_kind":    pr.Kind,
		"author":        sanitize.Line(pr.Author),
		"merged_at":     pr.MergedAt.Format(time.RFC3339),
	}
	if pr.Commits > 0 {
		t.Extra["commits"] = pr.Commits
	}
	if pr.IssueText != "" {
		t.Extra["issue_text"] = sanitize.Text(pr.IssueText)
	}
	return t
}

var extLanguage = map[string]string{
	".py": "python", ".go": "go", ".rs": "rust", ".js": "javascript", ".jsx": "javascript", ".mjs": "javascript",
	".cjs": "javascript", ".ts": "typescript", ".tsx": "typescript", ".java": "java", ".kt": "kotlin",
	".rb": "ruby", ".c": "c", ".h": "c", ".cc": "cpp", ".cpp": "cpp", ".hpp": "cpp", ".cs": "csharp",
	".php": "php", ".scala": "scala", ".swift": "swift",
}

// LanguageOf is the language most changed files are written in ("" when
// none is a known language).
func LanguageOf(files []FileChange) string {
	count := map[string]int{}
	for _, f := range files {
		if l := extLanguage[strings.ToLower(path.Ext(f.Path))]; l != "" {
			count[l] += 1 + f.Added + f.Removed
		}
	}
	langs := make([]string, 0, len(count))
	for l := range count {
		langs = append(langs, l)
	}
	sort.Slice(langs, func(i, j int) bool {
		if count[langs[i]] != count[langs[j]] {
			return count[langs[i]] > count[langs[j]]
		}
		return langs[i] < langs[j]
	})
	if len(langs) == 0 {
		return ""
	}
	return langs[0]
}

var (
	bugRe      = regexp.MustCompile(`(?i)\b(fix(e[sd])?|bug|crash|error|regression|broken|wrong|incorrect|reject)\b`)
	refactorRe = regexp.MustCompile(`(?i)\b(refactor\w*|rename\w*|clean ?up|restructur\w*|simplif\w*)\b`)
)

// Category guesses the task category from the PR title.
func Category(title string) string {
	switch {
	case bugRe.MatchString(title):
		return "bug_fix"
	case refactorRe.MatchString(title):
		return "refactoring"
	default:
		return "feature"
	}
}
