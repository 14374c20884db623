package selection

import "curate/pipeline"

// MergeQuotas applies a workspace's quotas over a profile's: an override
// naming the same dimension and value replaces the profile's quota there,
// any other is added. The workbench saves edited profile quotas this way.
func MergeQuotas(profile, overrides []pipeline.Quota) []pipeline.Quota {
	out := append([]pipeline.Quota(nil), profile...)
	for _, o := range overrides {
		replaced := false
		for i, q := range out {
			if i < len(profile) && q.Dimension == o.Dimension && q.Value == o.Value {
				out[i], replaced = o, true
				break
			}
		}
		if !replaced {
			out = append(out, o)
		}
	}
	return out
}
