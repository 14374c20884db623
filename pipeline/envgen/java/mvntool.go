package java

import (
	"curate/pipeline"
	"curate/pipeline/envgen"
	_ "embed"
	"strings"
)

// mvnSh is the curate-mvn helper: a Maven build at image build time,
// tried again on a dropped transfer, and on an enforcer rule that wants a
// newer Maven than the image has (see the script's header).
//
//go:embed curate-mvn.sh
var mvnSh string

// mvnTool adds curate-mvn to the plan, with fallbackMaven as the Maven it
// fetches for an enforcer rule the plan could not see (a parent POM's).
func mvnTool(p *envgen.Plan) {
	p.Tool("curate-mvn", strings.NewReplacer("@BUILD_NOTES@", pipeline.BuildNotesFile, "@FALLBACK@", fallbackMaven).Replace(mvnSh))
}
