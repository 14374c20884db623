package quotas

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"curate/pipeline"
	"curate/ui/shared"
)

// Columns 3 and 4 are the share quotas (min_share, max_share), shown and
// typed in percent of the budget; a nudge moves them one point.
const (
	fieldMinShare = 3
	fieldMaxShare = 4
	fieldCount    = 5
)

func isShareField(f int) bool { return f >= fieldMinShare }

func shareField(q *pipeline.Quota, f int) **float64 {
	if f == fieldMinShare {
		return &q.MinShare
	}
	return &q.MaxShare
}

// shareText is a share as a percent: 0.05 → "5%".
func shareText(p *float64) string {
	if p == nil {
		return ""
	}
	return strconv.FormatFloat(math.Round(*p*1000)/10, 'f', -1, 64) + "%"
}

// parseShare reads a percent ("5", "5%", "2.5"); empty clears.
func parseShare(text string) (*float64, error) {
	t := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(text), "%"))
	if t == "" {
		return nil, nil
	}
	n, err := strconv.ParseFloat(t, 64)
	if err != nil || n < 0 || n > 100 || math.IsNaN(n) {
		return nil, fmt.Errorf("%q is not a percent between 0 and 100", text)
	}
	v := n / 100
	return &v, nil
}

// nudgeShare moves a share by d points; a new one starts at what is
// selected now.
func (s *Model) nudgeShare(r quotaRow, q pipeline.Quota, d int) tea.Cmd {
	p := shareField(&q, s.field)
	var pct float64
	if *p != nil {
		pct = math.Round(**p*100) + float64(d)
	} else {
		pct = math.Round(float64(r.have)*100/float64(max(s.res.Budget, 1))) + float64(max(d, 0))
	}
	v := math.Min(math.Max(pct, 0), 100) / 100
	*p = &v
	return s.setQuota(r, q)
}

// remove drops the quota under the cursor; a profile's quota is saved as
// removed (remove = true in curate.toml) so it stays gone.
func (s *Model) remove() tea.Cmd {
	r := s.rows[s.list.Cursor]
	if r.dim == "" || r.quota < 0 {
		return shared.StatusCmd("no quota on this row to remove", true)
	}
	q := s.quotas[r.quota]
	qs := append([]pipeline.Quota(nil), s.quotas[:r.quota]...)
	qs = append(qs, s.quotas[r.quota+1:]...)
	if err := s.solver.SetQuotas(qs); err != nil {
		return shared.StatusCmd(err.Error(), true)
	}
	s.quotas, s.dirty = qs, true
	s.solve()
	from := ""
	if s.fromProfile(q) {
		from = " (the profile's: S saves it as removed)"
	}
	return shared.StatusCmd("removed quota "+q.Dimension+"="+q.Value+from, false)
}

// fromProfile reports whether the profile has a quota on q's dimension and value.
func (s *Model) fromProfile(q pipeline.Quota) bool {
	for _, p := range s.profile.Quotas {
		if p.Dimension == q.Dimension && p.Value == q.Value {
			return true
		}
	}
	return false
}

// removedProfileQuotas are the profile's quotas no longer in quotas, as
// the curate.toml entries that keep them removed.
func (s *Model) removedProfileQuotas() []pipeline.Quota {
	var out []pipeline.Quota
	for _, p := range s.profile.Quotas {
		kept := false
		for _, q := range s.quotas {
			if q.Dimension == p.Dimension && q.Value == p.Value {
				kept = true
				break
			}
		}
		if !kept {
			out = append(out, pipeline.Quota{Dimension: p.Dimension, Value: p.Value, Remove: true})
		}
	}
	return out
}
