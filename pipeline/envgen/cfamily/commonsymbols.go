package cfamily

import "curate/pipeline/envgen"

// commonSymbolsStep makes gcc compile C with -fcommon unless the project
// says -fno-common, through gcc's specs file: the default until GCC 10,
// which every build system and Makefile then gets, with no flag to pass.
// C written before GCC 10 (2020) often defines a global in a header
// without extern, which links only with it: a stack-unwinding library's
// PRs of 2019 to 2022 failed to link on Debian 12's gcc 12 ("multiple
// definition of `_U_dyn_info_list'") in both states, so no test ran. C++
// (cc1plus) is not touched.
func commonSymbolsStep(p *envgen.Plan) {
	p.ToolchainSteps = append(p.ToolchainSteps, `f="$(gcc -print-search-dirs | sed -n 's/^install: //p')specs" && gcc -dumpspecs | awk 'f { $0 = $0 " -fcommon"; f = 0 } /^\*cc1:$/ { f = 1 } 1' > /tmp/curate-specs && mv /tmp/curate-specs "$f"`)
	p.Note("gcc compiles C with -fcommon (its specs file; a project's -fno-common still wins): GCC's default before version 10, which C written before 2020 needs to link a global a header defines without extern")
}
