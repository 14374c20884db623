package task

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
)

// Unsaved names an open review form, whose scores and comment are not
// recorded until it is saved.
func (s *Model) Unsaved() string {
	ids := s.label.OpenReviewOf()
	if len(ids) == 0 {
		return ""
	}
	return fmt.Sprintf("an open review form on %s, not saved", strings.Join(ids, ", "))
}

// SaveUnsaved records the review as enter in the form does.
func (s *Model) SaveUnsaved() tea.Cmd { return s.label.SaveReview() }
