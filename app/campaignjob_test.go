package app

import (
	"reflect"
	"testing"
)

// A campaign's check waiting for the cluster shows as the workbench
// job's current item, with why, and is not counted as a repository
// checked.
func TestCampaignJobShowsAWait(t *testing.T) {
	var got []Progress
	tally := &campaignTally{clones: 2, steps: map[string]int{}, progress: func(p Progress) { got = append(got, p) }}
	tally.event(CampaignEvent{Repo: "acme/calc", Step: "env_check", Waiting: true, Detail: "waiting for the cluster: FailedCreate: exceeded quota: q"})
	tally.event(CampaignEvent{Repo: "acme/calc", Step: "env_check", Detail: "ok 9/9"})
	tally.event(CampaignEvent{Repo: "acme/mathx", Step: "env_check", Waiting: true, Detail: "waiting for the cluster: Unschedulable"})
	want := []Progress{
		{Stage: "env_check", Done: 0, Total: 2, Item: "acme/calc: waiting for the cluster: FailedCreate: exceeded quota: q", Repo: "acme/calc"},
		{Stage: "env_check", Done: 1, Total: 2, Item: "acme/calc: ok 9/9", Repo: "acme/calc"},
		{Stage: "env_check", Done: 1, Total: 2, Item: "acme/mathx: waiting for the cluster: Unschedulable", Repo: "acme/mathx"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("progress\n%+v\nwant\n%+v", got, want)
	}
}
