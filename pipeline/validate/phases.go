package validate

import (
	"archive/tar"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// exitHealthcheck is the script's exit code when the environment's
// healthcheck never passed.
const exitHealthcheck = 98

// stepRewardsFile holds "name reward" per step of a multi-step task.
const stepRewardsFile = "/logs/curate/step-rewards"

// healthcheckScript waits for the healthcheck command, as Harbor does
// before the agent starts; "" when the task has none.
func healthcheckScript(hc *Healthcheck) string {
	if hc == nil {
		return ""
	}
	secs := func(d interface{ Seconds() float64 }) string { return fmt.Sprintf("%g", d.Seconds()) }
	return fmt.Sprintf(`echo 'curate: healthcheck: '%[1]s
to=""; command -v timeout >/dev/null 2>&1 && to="timeout %[2]s"
n=0
until $to sh -c %[1]s >/dev/null 2>&1; do
  n=$((n+1))
  if [ "$n" -ge %[3]d ]; then echo "curate: healthcheck failed %[3]d times: "%[1]s; exit %[4]d; fi
  sleep %[5]s
done
echo 'curate: healthcheck passed'
`, shellQuote(hc.Command), secs(hc.Timeout), hc.Retries, exitHealthcheck, secs(hc.Interval))
}

// stepsScript runs a multi-step task's steps one after another in one
// container, as Harbor does: per step the oracle runs that step's
// solution (oracle mode), then /tests is the task's tests/ with the step's
// tests/ laid over it and test.sh runs. Each step's reward (reward.txt,
// else reward.json's only value) is kept; at the end reward.txt is their
// mean or the final one. A step without a reward leaves no reward at all.
func stepsScript(oracle bool, cfg *TaskConfig) string {
	var b strings.Builder
	b.WriteString("rm -rf /curate/base-tests; cp -a /tests /curate/base-tests\n: > " + stepRewardsFile + "\n: > /logs/curate/test-exit\n")
	for _, st := range cfg.Steps {
		dir := "/curate/steps/" + st.Name
		q := shellQuote(st.Name)
		fmt.Fprintf(&b, "echo 'curate: step '%s\n", q)
		b.WriteString("rm -f /logs/verifier/reward.txt /logs/verifier/reward.json\n")
		if oracle {
			fmt.Fprintf(&b, "if [ -f %[1]s/solution/solve.sh ]; then rm -rf /solution; cp -a %[1]s/solution /solution; "+
				"echo 'curate: oracle: bash /solution/solve.sh'; bash /solution/solve.sh 2>&1 | tee -a /logs/agent/oracle.txt; fi\n", dir)
		}
		fmt.Fprintf(&b, "rm -rf /tests; cp -a /curate/base-tests /tests; [ -d %[1]s/tests ] && cp -a %[1]s/tests/. /tests/\n", dir)
		b.WriteString("echo 'curate: verifier: bash /tests/test.sh'\n")
		b.WriteString(captured("bash /tests/test.sh", "/logs/verifier/test-stdout.txt", "/logs/curate/test-exit", true))
		fmt.Fprintf(&b, `r=""
if [ -s /logs/verifier/reward.txt ]; then r=$(tr -d ' \n\r\t' < /logs/verifier/reward.txt)
elif [ -s /logs/verifier/reward.json ]; then
  vals=$(tr ',{}' '\n\n\n' < /logs/verifier/reward.json | sed -n 's/^[^:]*:[[:space:]]*//p')
  [ "$(printf '%%s\n' "$vals" | grep -c .)" = 1 ] && r=$vals
fi
echo "curate: step "%[1]s" reward ${r:-missing}"
echo %[1]s" ${r:-missing}" >> %[2]s
`, q, stepRewardsFile)
	}
	// test-exit keeps the last step's exit code, as the single-step path.
	b.WriteString("tail -n 1 /logs/curate/test-exit > /logs/curate/test-exit.last; mv /logs/curate/test-exit.last /logs/curate/test-exit\n")
	b.WriteString("rm -f /logs/verifier/reward.txt /logs/verifier/reward.json\n")
	fmt.Fprintf(&b, `if ! grep -q ' missing$' %[1]s; then
  awk -v s=%[2]s '{ n++; sum += $2; last = $2 } END { if (n) print (s == "final" ? last : sum / n) }' %[1]s > /logs/verifier/reward.txt
  echo "curate: %[2]s reward of the steps: $(cat /logs/verifier/reward.txt)"
fi
`, stepRewardsFile, cfg.RewardStrategy)
	return b.String()
}

// stepsOnly reports a multi-step task without a task-level solution/
// (each step brings its own).
func stepsOnly(spec ExecSpec) bool {
	if spec.Config == nil || len(spec.Config.Steps) == 0 {
		return false
	}
	_, err := os.Stat(filepath.Join(spec.TaskDir, "solution"))
	return err != nil
}

// addStepFiles packs steps/<name>/ for every step under /curate/steps.
func addStepFiles(tw *tar.Writer, spec ExecSpec) error {
	for _, dir := range []string{"curate", "curate/steps"} {
		if err := addDir(tw, dir, 0o755); err != nil {
			return err
		}
	}
	for _, st := range spec.Config.Steps {
		prefix := "curate/steps/" + st.Name + "/"
		if err := addDir(tw, strings.TrimSuffix(prefix, "/"), 0o755); err != nil {
			return err
		}
		if err := writeTree(tw, filepath.Join(spec.TaskDir, "steps", st.Name), prefix); err != nil {
			return fmt.Errorf("copy step %s: %w", st.Name, err)
		}
	}
	return nil
}
