// Package languages registers every language envgen plans environments
// for. A new language is a package under pipeline/envgen/ whose init calls
// envgen.Register, and one import line here.
package languages

import (
	_ "curate/pipeline/envgen/cfamily"
	_ "curate/pipeline/envgen/golang"
	_ "curate/pipeline/envgen/java"
	_ "curate/pipeline/envgen/javascript"
	_ "curate/pipeline/envgen/python"
	_ "curate/pipeline/envgen/rust"
)
