package candidates

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"curate/internal/atomicfile"
	"curate/pipeline/query"
	"curate/ui/components/frame"
	"curate/ui/shared"
)

// SavedView is a named filter, facet set and sort, kept in
// .curate/views.json so it survives restarts.
type SavedView struct {
	Name   string              `json:"name"`
	Filter string              `json:"filter,omitempty"`
	Fuzzy  bool                `json:"fuzzy,omitempty"`
	Facets map[string][]string `json:"facets,omitempty"`
	Sort   string              `json:"sort"`
	Desc   bool                `json:"desc,omitempty"`
}

// ViewsFile is where the views of a workspace live.
func ViewsFile(root string) string { return filepath.Join(root, ".curate", "views.json") }

// LoadViews reads views.json; a missing file is no views. A bad file is an
// error naming it; nothing is written over it.
func LoadViews(path string) ([]SavedView, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read views %s: %w", path, err)
	}
	return ParseViews(path, data)
}

// ParseViews decodes and checks views; path is for messages.
func ParseViews(path string, data []byte) ([]SavedView, error) {
	var views []SavedView
	if err := json.Unmarshal(data, &views); err != nil {
		return nil, fmt.Errorf("%s: not a list of views: %w", path, err)
	}
	for i, v := range views {
		if strings.TrimSpace(v.Name) == "" {
			return nil, fmt.Errorf("%s: view %d has no name", path, i+1)
		}
		if _, err := query.Parse(v.Filter); err != nil && !v.Fuzzy {
			return nil, fmt.Errorf("%s: view %q: %w", path, v.Name, err)
		}
		if v.Sort != "" && sortColumn(v.Sort) < 0 {
			return nil, fmt.Errorf("%s: view %q: unknown sort column %q", path, v.Name, v.Sort)
		}
		for d := range v.Facets {
			if !contains(facetDims, d) {
				return nil, fmt.Errorf("%s: view %q: unknown facet %q (facets: %s)", path, v.Name, d, strings.Join(facetDims, ", "))
			}
		}
	}
	return views, nil
}

// SaveViews writes views atomically (temp file and rename).
func SaveViews(path string, views []SavedView) error {
	data, err := json.MarshalIndent(views, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("save views: %w", err)
	}
	if err := atomicfile.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("save views: %w", err)
	}
	return nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func sortColumn(title string) int {
	for i, c := range tableColumns {
		if strings.EqualFold(c.title, title) {
			return i
		}
	}
	return -1
}

type viewsMsg struct {
	views []SavedView
	err   error
	saved string
}

func (viewsMsg) Target() shared.TabID { return shared.TabCandidates }

func loadViewsCmd(root string) tea.Cmd {
	if root == "" {
		return nil
	}
	return func() tea.Msg {
		v, err := LoadViews(ViewsFile(root))
		return viewsMsg{views: v, err: err}
	}
}

func (s *Model) currentView(name string) SavedView {
	v := SavedView{Name: name, Filter: s.filterText, Fuzzy: s.fuzzy, Sort: tableColumns[s.sortCol].title, Desc: s.desc}
	for _, a := range s.facets.active() {
		if v.Facets == nil {
			v.Facets = map[string][]string{}
		}
		for val := range a.vals {
			v.Facets[a.dim] = append(v.Facets[a.dim], val)
		}
		sort.Strings(v.Facets[a.dim])
	}
	return v
}

func (s *Model) saveView(name string) tea.Cmd {
	if s.ctx.Root == "" {
		return shared.StatusCmd("no workspace: views cannot be saved", true)
	}
	v := s.currentView(name)
	views := make([]SavedView, 0, len(s.views)+1)
	for _, x := range s.views {
		if x.Name != name {
			views = append(views, x)
		}
	}
	views = append(views, v)
	sort.Slice(views, func(i, j int) bool { return views[i].Name < views[j].Name })
	path := ViewsFile(s.ctx.Root)
	return s.ctx.Job(func() tea.Msg {
		if err := SaveViews(path, views); err != nil {
			return viewsMsg{err: err}
		}
		return viewsMsg{views: views, saved: name}
	})
}

func (s *Model) viewsLoaded(m viewsMsg) tea.Cmd {
	if m.err != nil {
		return shared.StatusCmd(m.err.Error(), true)
	}
	s.views = m.views
	if m.saved != "" {
		return shared.StatusCmd(fmt.Sprintf("view %q saved to .curate/views.json", m.saved), false)
	}
	return nil
}

// applyView restores a saved view.
func (s *Model) applyView(v SavedView) {
	s.filterText, s.fuzzy, s.desc = v.Filter, v.Fuzzy, v.Desc
	if i := sortColumn(v.Sort); i >= 0 {
		s.sortCol = i
	}
	s.facets = facetSet{}
	for d, vals := range v.Facets {
		s.facets[d] = map[string]bool{}
		for _, x := range vals {
			s.facets[d][x] = true
		}
	}
	s.rebuild()
}

type viewMenu struct{ cursor int }

func (s *Model) viewKey(m tea.KeyMsg) tea.Cmd {
	vm := s.viewMenu
	k := s.ctx.Keys
	switch {
	case m.Type == tea.KeyEsc || k.Is(m, "views"):
		s.viewMenu = nil
	case k.Is(m, "up"):
		vm.cursor = max(vm.cursor-1, 0)
	case k.Is(m, "down"):
		vm.cursor = min(vm.cursor+1, max(len(s.views)-1, 0))
	case m.Type == tea.KeyEnter:
		s.viewMenu = nil
		if vm.cursor < len(s.views) {
			v := s.views[vm.cursor]
			s.applyView(v)
			return shared.StatusCmd(fmt.Sprintf("view %q: %d tasks", frame.CleanLine(v.Name), len(s.rows)), false)
		}
	case m.String() == "D" && vm.cursor < len(s.views):
		name := s.views[vm.cursor].Name
		views := append(append([]SavedView{}, s.views[:vm.cursor]...), s.views[vm.cursor+1:]...)
		s.views = views
		vm.cursor = min(vm.cursor, max(len(views)-1, 0))
		path := ViewsFile(s.ctx.Root)
		return s.ctx.Job(func() tea.Msg {
			if err := SaveViews(path, views); err != nil {
				return viewsMsg{err: err}
			}
			return shared.StatusMsg{Text: fmt.Sprintf("view %q deleted", name)}
		})
	}
	return nil
}

func (s *Model) viewsView(h int) string {
	st := s.ctx.Styles
	var b strings.Builder
	b.WriteString(st.Title.Render("Saved views") + st.Muted.Render("  enter applies · D deletes · esc closes") + "\n")
	if len(s.views) == 0 {
		b.WriteString(st.Muted.Render("  none yet: press w in the table to save the current filter, facets and sort") + "\n")
	}
	for i, v := range s.views {
		if i >= h-1 {
			break
		}
		line := fmt.Sprintf("%-20s %s", frame.CleanLine(v.Name), frame.CleanLine(describeView(v)))
		if i == s.viewMenu.cursor {
			b.WriteString(st.Cursor.Render(frame.PadRight("> "+line, s.w)) + "\n")
		} else {
			b.WriteString("  " + line + "\n")
		}
	}
	return b.String()
}

func describeView(v SavedView) string {
	parts := []string{}
	if v.Filter != "" {
		parts = append(parts, fmt.Sprintf("filter %q", v.Filter))
	}
	for _, d := range facetDims {
		if vals := v.Facets[d]; len(vals) > 0 {
			parts = append(parts, d+"="+strings.Join(vals, ","))
		}
	}
	dir := "↑"
	if v.Desc {
		dir = "↓"
	}
	parts = append(parts, "sort "+strings.ToLower(v.Sort)+dir)
	return strings.Join(parts, " · ")
}
