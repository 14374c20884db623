package selection

import "curate/pipeline"

// MergeQuotas applies a workspace's quotas over a profile's: an override
// naming the same dimension and value replaces the profile's quota there,
// any other is added; one with Remove drops the profile's quota there. The
// workbench saves edited and removed profile quotas this way.
func MergeQuotas(profile, overrides []pipeline.Quota) []pipeline.Quota {
	out := append([]pipeline.Quota(nil), profile...)
	removed := map[int]bool{}
	for _, o := range overrides {
		if o.Remove {
			for i := range profile {
				if profile[i].Dimension == o.Dimension && profile[i].Value == o.Value {
					removed[i] = true
				}
			}
			continue
		}
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
	if len(removed) == 0 {
		return out
	}
	kept := out[:0]
	for i, q := range out {
		if !removed[i] {
			kept = append(kept, q)
		}
	}
	return kept
}
