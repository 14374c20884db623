package validate

import (
	"fmt"
	"strings"
)

// captured is the shell that runs cmd (test.sh, solve.sh) with its output
// on the container's stream and its first MaxTestLog bytes in file, and
// exitFile (when set) given cmd's exit code; add appends to both.
//
// The run ends when cmd exits, not when its output closes: a background
// process cmd left holding stdout gets two seconds, then the tee is
// stopped (a plain `cmd | tee` waits for every writer of the pipe, so a
// test that finished in a second became a timeout). The file holds at
// most MaxTestLog bytes, so a test printing without end does not fill
// the container's disk either. Images without mkfifo get the plain pipe.
func captured(cmd, file, exitFile string, add bool) string {
	redir, teeFlag := ">", ""
	if add {
		redir, teeFlag = ">>", "-a "
	}
	exit := ":"
	if exitFile != "" {
		exit = fmt.Sprintf("echo $_cst %s %s", redir, exitFile)
	}
	var b strings.Builder
	b.WriteString("_cf=/logs/curate/out.$$; rm -f $_cf.1 $_cf.2\n")
	b.WriteString("if mkfifo $_cf.1 $_cf.2 2>/dev/null; then\n")
	fmt.Fprintf(&b, "  { head -c %d %s %s; cat > /dev/null; } < $_cf.2 & _crd=$!\n", MaxTestLog, redir, file)
	b.WriteString("  tee $_cf.2 < $_cf.1 & _ctee=$!\n")
	fmt.Fprintf(&b, "  %s > $_cf.1 2>&1 &\n", cmd)
	fmt.Fprintf(&b, "  wait $!; _cst=$?; %s\n", exit)
	b.WriteString("  ( sleep 2; kill $_ctee 2>/dev/null ) & _cwd=$!\n")
	// Only our own jobs are waited for: a process test.sh left running
	// is adopted by this shell when it is the container's first process,
	// and a bare wait would then block until the run's timeout.
	b.WriteString("  wait $_ctee 2>/dev/null; kill $_cwd 2>/dev/null; wait $_crd 2>/dev/null; rm -f $_cf.1 $_cf.2\n")
	b.WriteString("else\n")
	if exitFile != "" {
		fmt.Fprintf(&b, "  { %s; echo $? %s %s; } 2>&1 | tee %s%s\n", cmd, redir, exitFile, teeFlag, file)
	} else {
		fmt.Fprintf(&b, "  %s 2>&1 | tee %s%s\n", cmd, teeFlag, file)
	}
	b.WriteString("fi\n")
	return b.String()
}
