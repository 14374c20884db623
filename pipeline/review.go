package pipeline

import (
	"fmt"
	"strings"
)

// Review label fields: a human quality review in the shape of the
// SWE-bench Verified annotation. Scores are "0".."3" ("" = not reviewed).
const (
	FieldUnderspecified = "underspecified" // how unclear the instruction is
	FieldFalseNegative  = "false_negative" // how likely the tests reject a correct fix
	FieldFixTime        = "fix_time"       // how long an engineer needs
	FieldReviewComment  = "review_comment"
	FieldReviewer       = "reviewer"
)

// ReviewFields lists the review's label fields in display order.
var ReviewFields = []string{FieldUnderspecified, FieldFalseNegative, FieldFixTime, FieldReviewComment, FieldReviewer}

// FixTimes are the fix-time buckets, shortest first.
var FixTimes = []string{"<15m", "15m-1h", "1h-4h", ">4h"}

// FlagScore is the score at which a task is flagged: SWE-bench Verified
// dropped tasks scoring 2 or more on either question.
const FlagScore = 2

// Reviewed reports whether a review was recorded.
func (l Labels) Reviewed() bool {
	return l.Underspecified != "" || l.FalseNegative != "" || l.FixTime != "" || l.ReviewComment != ""
}

// Flagged reports whether either score is FlagScore or more.
func (l Labels) Flagged() bool {
	return scoreAtLeast(l.Underspecified, FlagScore) || scoreAtLeast(l.FalseNegative, FlagScore)
}

// ReviewState is "unreviewed", "reviewed" or "flagged" (a flagged task is
// also reviewed).
func (l Labels) ReviewState() string {
	switch {
	case l.Flagged():
		return "flagged"
	case l.Reviewed():
		return "reviewed"
	}
	return "unreviewed"
}

func scoreAtLeast(s string, n int) bool {
	return len(s) == 1 && int(s[0]-'0') >= n
}

// normalizeScore accepts "0".."3" or "" (clears the score).
func normalizeScore(field, value string) (string, error) {
	v := strings.TrimSpace(value)
	switch v {
	case "", "0", "1", "2", "3":
		return v, nil
	}
	return "", fmt.Errorf("%s must be 0, 1, 2 or 3, not %q", field, value)
}

// normalizeFixTime accepts one of FixTimes or "" (clears it).
func normalizeFixTime(value string) (string, error) {
	v := strings.TrimSpace(value)
	if v == "" {
		return "", nil
	}
	for _, f := range FixTimes {
		if strings.EqualFold(v, f) {
			return f, nil
		}
	}
	return "", fmt.Errorf("fix_time must be one of %s, not %q", strings.Join(FixTimes, ", "), value)
}

// ReviewColumns are a task's review as the manifest and the SWE-bench JSONL
// carry it: scores as numbers, every key left out when not reviewed.
type ReviewColumns struct {
	Underspecified *int   `json:"underspecified,omitempty"`
	FalseNegative  *int   `json:"false_negative,omitempty"`
	FixTime        string `json:"fix_time,omitempty"`
	ReviewComment  string `json:"review_comment,omitempty"`
	Reviewer       string `json:"reviewer,omitempty"`
}

// Columns returns the review's export columns.
func (l Labels) Columns() ReviewColumns {
	c := ReviewColumns{FixTime: l.FixTime, ReviewComment: l.ReviewComment}
	if l.Reviewed() {
		c.Reviewer = l.Reviewer
	}
	c.Underspecified, c.FalseNegative = scorePtr(l.Underspecified), scorePtr(l.FalseNegative)
	return c
}

func scorePtr(s string) *int {
	if len(s) != 1 || s[0] < '0' || s[0] > '3' {
		return nil
	}
	n := int(s[0] - '0')
	return &n
}
