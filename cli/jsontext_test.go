package cli

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"curate/pipeline"
	"curate/workspace"
)

// Every field the text view prints, the JSON carries: each label `show`
// and `runs show` print maps to a JSON key that is present and not empty
// ("?key": present, maybe empty, as the text prints "-").
// A label the text gains without a JSON key here fails the test.
var showTextToJSON = map[string]string{
	"title": "title", "benchmark": "benchmark", "source": "source_path", "repo": "repo", "pull request": "head_commit",
	"language": "language", "built at": "build_strategy", "category": "category", "sdlc phase": "phase_rule",
	"status": "status", "reason": "reasons", "class": "failure", "evidence": "failure", "suggestion": "failure",
	"environment": "environment_notes", "difficulty": "?difficulty_label", "calibration rule": "difficulty_rule",
	"mcp benefit score": "mcp_breakdown", "score": "mcp_breakdown", "features": "feature_sources", "flags": "pinned", "note": "note",
	"review": "review", "task dir": "task_dir", "digest": "digest", "source keys": "source_keys",
	"runs": "runs", "history": "history", "instruction from": "instruction_source", "toolchain": "toolchain_decisions",
}

var runTextToJSON = map[string]string{
	"run": "id", "task": "task_id", "mode": "mode", "outcome": "outcome", "reward": "reward", "attempts": "attempt",
	"detail": "detail", "class": "failure", "evidence": "failure", "suggestion": "failure", "digest": "stale",
	"engine": "docker_host", "retry": "retry", "started": "started_at", "finished": "finished_at", "log": "log_path",
	"FAIL_TO_PASS": "fail_to_pass", "PASS_TO_PASS": "pass_to_pass", "flaky": "flaky", "unstable ids": "unstable",
}

var repoTextToJSON = map[string]string{
	"language": "language", "profile": "?profile", "toolchain": "toolchain", "install": "install", "tests": "test_command",
	"snapshot": "?snapshot", "repo image": "repo_images", "task images": "images", "env check": "?env_check", "yield": "funnel",
}

// textLabels reads the labels of a key-value text view: "label   value"
// lines (two spaces or more apart), and section lines ("runs",
// "history (newest first)", "FAIL_TO_PASS (2):"). Indented entries of a
// section and the body after the first blank line are not labels.
func textLabels(text string, indented ...string) []string {
	kv := regexp.MustCompile(`^(\S.*?)\s{2,}\S`)
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if l == "" {
			break
		}
		if strings.HasPrefix(l, "#") || strings.HasPrefix(l, "===") {
			continue // a history entry; the title's rule
		}
		trimmed := strings.TrimLeft(l, " ")
		if trimmed != l {
			for _, p := range indented {
				if strings.HasPrefix(trimmed, p+" ") {
					out = append(out, p)
				}
			}
			continue
		}
		if m := kv.FindStringSubmatch(l); m != nil {
			out = append(out, m[1])
			continue
		}
		sec := strings.TrimSuffix(strings.TrimSpace(regexp.MustCompile(`\(.*\):?$`).ReplaceAllString(l, "")), ":")
		out = append(out, sec)
	}
	return out
}

func checkJSONCarries(t *testing.T, what, text, js string, table map[string]string, indented ...string) {
	t.Helper()
	var obj map[string]any
	if err := json.Unmarshal([]byte(js), &obj); err != nil {
		t.Fatalf("%s --json: %v\n%s", what, err, js)
	}
	labels := textLabels(text, indented...)
	if len(labels) < 8 {
		t.Fatalf("%s: read only %v from\n%s", what, labels, text)
	}
	for _, l := range labels {
		key, ok := table[l]
		if !ok {
			t.Errorf("%s prints %q, which has no JSON key in the test's table: add the field to --json and the table", what, l)
			continue
		}
		mayBeEmpty := strings.HasPrefix(key, "?")
		key = strings.TrimPrefix(key, "?")
		v, ok := obj[key]
		empty := !ok || (!mayBeEmpty && (v == nil || v == ""))
		switch x := v.(type) {
		case []any:
			empty = !mayBeEmpty && len(x) == 0
		case map[string]any:
			empty = !mayBeEmpty && len(x) == 0
		}
		if empty {
			t.Errorf("%s prints %q but its --json %q is missing or empty", what, l, key)
		}
	}
}

func TestJSONCarriesWhatTextPrints(t *testing.T) {
	root := demoWorkspace(t)
	id := "acme__calc-1"
	if code, _, errs := cli(t, "-w", root, "label", id, "--note", "checked", "--pin"); code != 0 {
		t.Fatal(errs)
	}
	ws, err := workspace.Open(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	one := 1.0
	now := time.Now().UTC()
	run := &pipeline.Run{ID: "r-json-1", TaskID: id, Mode: "gold", Attempt: 1, Outcome: pipeline.OutcomeOK, Reward: &one,
		Digest: "old", FailToPass: []string{"test_div"}, PassToPass: []string{"test_add"}, Flaky: []string{"test_rand"}, Unstable: []string{"test_stamp[21:04:07]"},
		DockerHost: "unix:///var/run/docker.sock", Retry: "retried", LogPath: "/tmp/x.log", Detail: "d",
		StartedAt: now, FinishedAt: now.Add(time.Second)}
	if err := ws.Store.SaveRun(context.Background(), run); err != nil {
		t.Fatal(err)
	}
	// A toolchain decision as a build records it (app.setDecisions).
	task, err := ws.Store.Task(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	task.Extra["toolchain_decisions"] = []any{map[string]any{"tool": "maven", "version": "3.9.9", "source": ".mvn/wrapper/maven-wrapper.properties distributionUrl"}}
	if err := ws.Store.UpsertTasks(context.Background(), []*pipeline.Task{task}); err != nil {
		t.Fatal(err)
	}
	ws.Close()
	for _, c := range []struct {
		what     string
		args     []string
		table    map[string]string
		indented []string
	}{
		{"show", []string{"show", id}, showTextToJSON, []string{"reason", "toolchain", "environment", "calibration rule"}},
		{"runs show", []string{"runs", "show", run.ID}, runTextToJSON, nil},
		{"repo show", []string{"repo", "show", "acme/calc"}, repoTextToJSON, nil},
	} {
		code, text, errs := cli(t, append([]string{"-w", root}, c.args...)...)
		if code != 0 {
			t.Fatal(errs)
		}
		code, js, errs := cli(t, append(append([]string{"-w", root}, c.args...), "--json")...)
		if code != 0 {
			t.Fatal(errs)
		}
		if c.what == "show" || c.what == "repo show" {
			text = text[strings.Index(text, "\n")+1:] // the title line: the id
		}
		checkJSONCarries(t, c.what, text, js, c.table, c.indented...)
	}
}
