package envgen

import (
	"strings"
	"testing"

	"curate/pipeline"
)

// task.toml carries the toolchain decisions only when there are some, so
// a task whose build decided nothing keeps its files (and digest).
func TestTaskTOMLDecisions(t *testing.T) {
	task := &pipeline.Task{ID: "o__r-1", Repo: "o/r", PR: 1, Source: "git", Category: "bug"}
	p := &Plan{Language: "java"}
	p.Note("JDK 17 and Maven 3.8 from Debian")
	before, err := TaskTOML(task, "java", nil, p)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(before), "toolchain_decisions") {
		t.Errorf("no decision, yet:\n%s", before)
	}
	p.Decide("maven", "3.9.9", "pom.xml maven-enforcer-plugin requireMavenVersion [3.9,)")
	after, err := TaskTOML(task, "java", nil, p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(after), `toolchain_decisions = ['maven 3.9.9 from pom.xml maven-enforcer-plugin requireMavenVersion [3.9,)']`) {
		t.Errorf("task.toml:\n%s", after)
	}
}

// A plan's memory goes into task.toml; a plan that asks none keeps the
// default, so the other languages' tasks keep their files.
func TestTaskTOMLMemory(t *testing.T) {
	task := &pipeline.Task{ID: "o__r-1", Repo: "o/r", PR: 1, Source: "git", Category: "bug"}
	for mb, want := range map[int]string{0: "memory_mb = 2048", 4096: "memory_mb = 4096"} {
		out, err := TaskTOML(task, "cpp", nil, &Plan{Language: "cpp", MemoryMB: mb})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(out), want) {
			t.Errorf("plan memory %d: task.toml lacks %q:\n%s", mb, want, out)
		}
	}
}
