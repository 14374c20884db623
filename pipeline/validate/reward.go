package validate

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"curate/pipeline"
)

// RewardError says why a reward could not be read; Outcome is
// reward_missing or reward_invalid.
type RewardError struct {
	Outcome pipeline.Outcome
	Msg     string
}

func (e *RewardError) Error() string { return e.Msg }

// ReadReward applies formats.md: /logs/verifier/reward.json (a flat
// {name: number} object; the "reward" key, or its only key) else
// reward.txt (one float). Missing, empty or unparsable is an error, never 0.
func ReadReward(res *ExecResult) (float64, error) {
	if res.HasJSON {
		text := strings.TrimSpace(string(res.RewardJSON))
		if text == "" {
			return 0, &RewardError{pipeline.OutcomeRewardMissing, "/logs/verifier/reward.json is empty"}
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(text), &m); err != nil {
			return 0, &RewardError{pipeline.OutcomeRewardInvalid, fmt.Sprintf("/logs/verifier/reward.json: not a flat {name: number} object: %s", clip(text))}
		}
		v, ok := m["reward"]
		if !ok {
			if len(m) != 1 {
				keys := make([]string, 0, len(m))
				for k := range m {
					keys = append(keys, k)
				}
				sort.Strings(keys)
				return 0, &RewardError{pipeline.OutcomeRewardInvalid, fmt.Sprintf("/logs/verifier/reward.json: no \"reward\" key among %d keys %v", len(m), keys)}
			}
			for _, only := range m {
				v = only
			}
		}
		f, ok := v.(float64)
		if !ok || math.IsNaN(f) || math.IsInf(f, 0) {
			return 0, &RewardError{pipeline.OutcomeRewardInvalid, fmt.Sprintf("/logs/verifier/reward.json: reward %v is not a number", v)}
		}
		return f, nil
	}
	if res.HasText {
		text := strings.TrimSpace(string(res.RewardText))
		if text == "" {
			return 0, &RewardError{pipeline.OutcomeRewardMissing, "/logs/verifier/reward.txt is empty"}
		}
		f, err := strconv.ParseFloat(text, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return 0, &RewardError{pipeline.OutcomeRewardInvalid, fmt.Sprintf("/logs/verifier/reward.txt: %q is not a number", clip(text))}
		}
		return f, nil
	}
	return 0, &RewardError{pipeline.OutcomeRewardMissing, "test.sh wrote neither /logs/verifier/reward.json nor reward.txt"}
}

func clip(s string) string {
	if len(s) > 60 {
		s = s[:60] + "..."
	}
	return strconv.Quote(s)[1 : len(strconv.Quote(s))-1]
}
