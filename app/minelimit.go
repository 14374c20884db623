package app

import (
	"context"
	"errors"

	"curate/pipeline/filter"
	"curate/pipeline/source"
	"curate/pipeline/source/gitmine"
)

// errEnough stops a GitHub mine once it saved --limit candidates.
var errEnough = errors.New("enough candidates")

// isCandidate says whether the filter passes pr (as SaveCandidates will
// judge it; a filter error counts as a rejection here and is reported
// when the PR is saved).
func isCandidate(fc *filter.Config, fopt filter.Options, pr *source.PR) bool {
	reasons, err := fc.Evaluate(pr, fopt)
	return err == nil && len(reasons) == 0
}

// mineCandidates mines a clone until opt.Limit PRs pass the filter, or
// history ends: --limit counts candidates, not PRs, so a preset that
// rejects most PRs does not leave a user who asked for 20 with none. The
// rejected PRs met on the way are kept (the mine's table says why each was
// rejected). Each round walks four times as far as the last, so the
// repeated walks cost at most a third more than the last one.
func mineCandidates(ctx context.Context, opt gitmine.Options, accept func(*source.PR) (bool, error)) (*gitmine.Result, error) {
	want := opt.Limit
	if want <= 0 {
		return gitmine.MineAll(ctx, opt)
	}
	for walk := want; ; walk *= 4 {
		o := opt
		o.Limit = walk
		res, err := gitmine.MineAll(ctx, o)
		if err != nil {
			return nil, err
		}
		n := 0
		for i, pr := range res.PRs {
			ok, err := accept(pr)
			if err != nil {
				return nil, err
			}
			if ok {
				n++
			}
			if n == want {
				res.PRs = res.PRs[:i+1]
				return res, nil
			}
		}
		if len(res.PRs) < walk { // history has no more PRs
			return res, nil
		}
	}
}
