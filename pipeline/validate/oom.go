package validate

import (
	"fmt"

	"curate/pipeline/validate/logstream"
)

// oomDetail says what stopped the run and how to give it more room.
func oomDetail(limitMB int64) string {
	return fmt.Sprintf("stopped by its memory limit (%d MB): the test suite allocated more; raise [environment] memory_mb in task.toml, or [docker] memory in curate.toml, if it really needs more", limitMB)
}

// oomIsTheBug says whether a run the OOM killer touched still has a
// result: on the buggy state (NOP, gold's buggy run), when the kernel
// killed one process (a test that allocates without end: the bug) and
// test.sh went on to its end (its exit status is known and is not a
// kill's, 137) with reward 0. A test that crashes before the fix fails;
// the fixed state must fit the limit, so an Oracle run or a fixed state
// touched by it stays oom, and so does a buggy run that then claims to
// pass.
func oomIsTheBug(spec ExecSpec, res *ExecResult, log *logstream.Broadcaster) bool {
	if spec.Oracle || res.TestExit < 0 || res.TestExit == 137 {
		return false
	}
	if r, err := ReadReward(res); err != nil || r != 0 {
		return false
	}
	log.Line(fmt.Sprintf("curate: the kernel killed a process at the memory limit (%d MB) on the buggy state, and test.sh went on to its end (exit %d, reward 0): the result stands: a test that allocates without end before the fix fails", res.OOMKilledMB, res.TestExit))
	return true
}
