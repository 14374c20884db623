package filter

import (
	"fmt"
	"regexp"

	"curate/pipeline/patch"
	"curate/pipeline/source"
)

// Options are the per-run choices: the preset and whether a linked issue
// is required (nil = the profile's default).
type Options struct {
	Preset       string
	RequireIssue *bool
}

// Evaluate marks each file of pr as test or not and returns every reason
// pr fails the preset; none means it passes. Structural problems (an
// octopus merge, no files) are reasons under every preset.
func (c *Config) Evaluate(pr *source.PR, opt Options) ([]string, error) {
	var reasons []string
	var nTest, nSource, srcLines, allLines int
	var binaries []string
	supported := false
	for i := range pr.Files {
		f := &pr.Files[i]
		kind := c.Classify(f.Path)
		f.Test = kind == KindTest
		switch kind {
		case KindTest:
			nTest++
		case KindSource:
			nSource++
			srcLines += f.Added + f.Removed
		}
		allLines += f.Added + f.Removed
		if f.Binary {
			binaries = append(binaries, source.DisplayPath(f.Path))
		}
		if c.Supported(f.Path) {
			supported = true
		}
		for _, p := range []string{f.Path, f.OldPath} {
			if p != "" {
				if err := patch.CheckPath(p); err != nil {
					reasons = append(reasons, "unsafe file path: "+err.Error())
				}
			}
		}
	}
	if pr.Parents > 2 {
		reasons = append(reasons, fmt.Sprintf("octopus merge (%d parents): no single base commit", pr.Parents))
	}
	if len(pr.Files) == 0 {
		reasons = append(reasons, "changes no files")
	}
	if pr.BaseRef != "" && pr.DefaultBranch != "" && pr.BaseRef != pr.DefaultBranch && opt.Preset == "taskgen" {
		reasons = append(reasons, fmt.Sprintf("merged into %s, not the default branch %s", pr.BaseRef, pr.DefaultBranch))
	}
	if pr.HeadCommit == "" || pr.BaseCommit == "" {
		reasons = append(reasons, "merge commit unknown or missing from the clone")
	}
	switch opt.Preset {
	case "none", "":
	case "taskgen":
		t := c.TaskGen
		if t.RequireTests && nTest == 0 {
			reasons = append(reasons, "touches no test files")
		}
		if nSource < t.MinSourceFiles {
			reasons = append(reasons, fmt.Sprintf("%d source files, fewer than %d", nSource, t.MinSourceFiles))
		}
		if t.MaxSourceFiles > 0 && nSource > t.MaxSourceFiles {
			reasons = append(reasons, fmt.Sprintf("%d source files, more than %d", nSource, t.MaxSourceFiles))
		}
		require := t.RequireIssue
		if opt.RequireIssue != nil {
			require = *opt.RequireIssue
		}
		if require && len(pr.Issues) == 0 {
			reasons = append(reasons, "no linked issue (use --no-require-issue to allow)")
		}
		if nSource > 0 && srcLines < t.MinSourceLines {
			reasons = append(reasons, fmt.Sprintf("not substantial: %d changed source lines, fewer than %d", srcLines, t.MinSourceLines))
		}
		for _, h := range t.Unsubstantial {
			ok, err := h.matches(pr)
			if err != nil {
				return nil, err
			}
			if ok {
				reasons = append(reasons, "not substantial: "+h.Reason)
			}
		}
	case "swesmith":
		s := c.SWESmith
		if s.RequireTests && nTest == 0 {
			reasons = append(reasons, "no test change")
		}
		if nTest > 0 && nTest == len(pr.Files) {
			// Build refuses it (nothing for the agent to fix); passed here,
			// it took a --limit slot and an environment check for nothing.
			reasons = append(reasons, "changes only test files: nothing for the agent to fix")
		}
		if s.MaxSourceFiles > 0 && nSource > s.MaxSourceFiles {
			reasons = append(reasons, fmt.Sprintf("%d source files, more than %d", nSource, s.MaxSourceFiles))
		}
		if s.MaxChangedLines > 0 && allLines > s.MaxChangedLines {
			reasons = append(reasons, fmt.Sprintf("%d changed lines, more than %d", allLines, s.MaxChangedLines))
		}
		if s.MaxFileLines > 0 {
			for _, f := range pr.Files {
				if f.Lines > s.MaxFileLines {
					reasons = append(reasons, fmt.Sprintf("touched file %s has %d lines, more than %d", source.DisplayPath(f.Path), f.Lines, s.MaxFileLines))
				}
			}
		}
		if s.NoBinaries && len(binaries) > 0 {
			reasons = append(reasons, fmt.Sprintf("binary files: %v", binaries))
		}
		if s.RequireSupported && !supported {
			reasons = append(reasons, "no file with a supported extension")
		}
	default:
		return nil, fmt.Errorf("unknown filter preset %q (want taskgen, swesmith or none)", opt.Preset)
	}
	return reasons, nil
}

func (h Heuristic) matches(pr *source.PR) (bool, error) {
	if h.Title != "" {
		re, err := regexp.Compile(h.Title)
		if err != nil {
			return false, fmt.Errorf("heuristic %s: %w", h.Reason, err)
		}
		if re.MatchString(pr.Title) {
			return true, nil
		}
	}
	if h.AllFiles != "" && len(pr.Files) > 0 {
		re, err := regexp.Compile(h.AllFiles)
		if err != nil {
			return false, fmt.Errorf("heuristic %s: %w", h.Reason, err)
		}
		for _, f := range pr.Files {
			if !re.MatchString(f.Path) {
				return false, nil
			}
		}
		return true, nil
	}
	return false, nil
}
