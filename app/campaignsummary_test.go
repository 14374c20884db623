package app

import "testing"

// A finished campaign's line fits the jobs list's detail line at 80
// columns (76 after its indent) with every count present at a realistic
// size, and leaves out the zero qualifiers.
func TestCampaignSummaryFitsTheJobsList(t *testing.T) {
	for _, c := range []struct {
		sum  CampaignEvent
		want string
	}{
		{CampaignEvent{Mined: 140, Rejected: 52, Built: 88, Already: 12, Refused: 3, Valid: 61, Invalid: 27},
			"61 valid, 27 invalid · 88 built (12 before, 3 refused) · 140 mined, 52 rejected"},
		{CampaignEvent{Mined: 1, Rejected: 1}, "0 valid, 0 invalid · 0 built · 1 mined, 1 rejected"},
		{CampaignEvent{Mined: 5, Built: 4, Refused: 1, Valid: 4}, "4 valid, 0 invalid · 4 built (1 refused) · 5 mined"},
	} {
		got := campaignSummary(c.sum)
		if got != c.want {
			t.Errorf("got  %q\nwant %q", got, c.want)
		}
	}
	if n := len([]rune(campaignSummary(CampaignEvent{Mined: 40, Rejected: 12, Built: 28, Already: 3, Refused: 1, Valid: 20, Invalid: 8}))); n > 76 {
		t.Errorf("%d columns; the jobs list has 76", n)
	}
}
