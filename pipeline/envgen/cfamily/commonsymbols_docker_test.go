package cfamily

import (
	"os/exec"
	"strings"
	"testing"

	"curate/internal/testenv"
	"curate/pipeline/envgen"
)

// libunwind/libunwind (held out, fourteenth set): its PRs of 2019 to 2022
// define a global in two files without extern, which gcc 12 (-fno-common
// by default) refuses to link, in both states. After the plan's step gcc
// links such C as GCC 9 did; a project's own -fno-common still wins, and
// C++ is unchanged.
func TestGccLinksCommonSymbolsAfterThePlansStepInDocker(t *testing.T) {
	p := &envgen.Plan{Tools: map[string]string{}}
	commonSymbolsStep(p)
	if len(p.ToolchainSteps) != 1 {
		t.Fatalf("toolchain steps %q, want one", p.ToolchainSteps)
	}
	img := testenv.PackagesImage(t, cToolchain...)
	script := "cd /tmp && printf 'int x;\\nint f(void){return x;}\\n' > a.c && printf 'int x;\\nint f(void);\\nint main(void){return f()+x;}\\n' > b.c && " +
		"{ gcc a.c b.c -o before 2>/dev/null && echo 'linked before'; true; } && " + p.ToolchainSteps[0] + " && " +
		"gcc a.c b.c -o t && echo 'linked after' && ccache gcc -c a.c -o a.o && ccache gcc -c b.c -o b.o && gcc a.o b.o -o t2 && echo 'linked through ccache' && " +
		"{ gcc -fno-common a.c b.c -o t3 2>/dev/null || echo 'the project wins'; } && printf 'int main(){return 0;}\\n' > c.cpp && g++ c.cpp -o c && echo 'c++ builds'"
	out, err := exec.Command("docker", "run", "--rm", img, "bash", "-c", script).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	wantAll(t, string(out), "linked after", "linked through ccache", "the project wins", "c++ builds")
	if strings.Contains(string(out), "linked before") {
		t.Errorf("gcc linked common symbols before the step; the test proves nothing:\n%s", out)
	}
}

func TestPlanLinksCommonSymbols(t *testing.T) {
	p, err := (lang{"c"}).Plan(envgen.MapTree("o/n", map[string]string{"Makefile": "all:\n\tcc -o t t.c\n", "t.c": ""}), envgen.Tests{Files: []string{"t.c"}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(p.ToolchainSteps, "\n"), "-fcommon") {
		t.Errorf("toolchain steps %q lack gcc's -fcommon", p.ToolchainSteps)
	}
}
