package shared

import "curate/pipeline"

// ShortPhase is pipeline.ShortPhase, for the screens.
func ShortPhase(p string) string { return pipeline.ShortPhase(p) }
