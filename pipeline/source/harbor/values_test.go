package harbor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every hostile value of issue 18 is refused with file:line:col and the
// key, not dropped, not stored as something JSON cannot encode.
func TestParseTaskTOMLRefusesBadValues(t *testing.T) {
	big := strings.Repeat("x", 5<<20)
	cases := []struct{ name, toml, want string }{
		{"inf feature", "[metadata]\ncodebase_loc = inf\n", "t.toml:2:1: metadata.codebase_loc: want a finite number (got +Inf)"},
		{"nan feature", "[metadata]\n\ncode_ratio = nan\n", "t.toml:3:1: metadata.code_ratio: want a finite number (got NaN)"},
		{"negative feature", "[metadata]\nfiles_count = -3\n", "metadata.files_count: want a number >= 0"},
		{"feature not a number", "[metadata]\ncontext_length = \"lots\"\n", "metadata.context_length: want a number"},
		{"difficulty number", "[metadata]\ndifficulty = 5\n", "t.toml:2:1: metadata.difficulty: want a string (got 5)"},
		{"difficulty off the scale", "[metadata]\ndifficulty = \"nightmare\"\n", "metadata.difficulty: want one of easy, medium"},
		{"difficulty 5 MB", "[metadata]\ndifficulty = \"" + big + "\"\n", "metadata.difficulty: 5.0 MB is over the 1.0 KB limit"},
		{"category list", "[metadata]\ncategory = [\"a\"]\n", "t.toml:2:1: metadata.category: want a string (got a list)"},
		{"tags not a list", "[metadata]\ntags = \"a,b\"\n", "metadata.tags: want a list of strings"},
		{"timeout string", "[verifier]\ntimeout_sec = \"abc\"\n", "t.toml:2:1: verifier.timeout_sec: want a number (got string \"abc\")"},
		{"cpus string", "[environment]\ncpus = \"many\"\n", "environment.cpus: want a number"},
		{"cpus negative", "[environment]\ncpus = -1\n", "t.toml:2:1: environment.cpus: want a number > 0 (got -1)"},
		{"memory zero", "[environment]\nmemory_mb = 0\n", "environment.memory_mb: want a number > 0"},
		{"memory nonsense", "[environment]\nmemory = \"lots\"\n", "environment.memory: want a positive size"},
		{"network mode", "[environment]\nnetwork_mode = \"host\"\n", "environment.network_mode: want one of public, no-network, allowlist"},
		{"path id", "[task]\nid = \"../../evil\"\n", "t.toml:2:1: task.id: id \"../../evil\" is not usable as a folder name"},
		{"unknown key inf", "[extra]\nweight = -inf\n", "t.toml:2:1: extra.weight: want a finite number (got -Inf)"},
		{"unknown key nested inf", "[extra]\nlist = [1.0, inf]\n", "extra.list[2]: want a finite number"},
		{"unknown key 5 MB", "[extra]\nblob = \"" + big + "\"\n", "extra.blob: 5.0 MB is over the 1.0 MB limit"},
		{"inline table", "environment = { cpus = -2 }\n", "t.toml:1:17: environment.cpus"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseTaskTOML("t.toml", []byte(c.toml))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v\nwant it to contain %q", err, c.want)
			}
			if len(err.Error()) > 400 {
				t.Errorf("message of %d bytes: a huge value must be clipped", len(err.Error()))
			}
		})
	}
}

func TestParseTaskTOMLNormalisesGoodValues(t *testing.T) {
	tt, err := ParseTaskTOML("t.toml", []byte(`[metadata]
difficulty = "Very Hard"
codebase_loc = "3_600_000"
tags = ["a", "b"]
[environment]
cpus = 2
memory = "8G"
`))
	if err != nil {
		t.Fatal(err)
	}
	if tt.Difficulty != "Very Hard" || tt.Features["codebase_loc"] != 3600000 {
		t.Errorf("difficulty %q, codebase_loc %v", tt.Difficulty, tt.Features["codebase_loc"])
	}
	if tags, ok := tt.Extra["metadata.tags"].([]any); !ok || len(tags) != 2 || tt.Extra["environment.memory"] != "8G" {
		t.Errorf("tags = %#v", tt.Extra["metadata.tags"])
	}
}

func TestReadRefusesBadValueNamingTheFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bad")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "instruction.md"), []byte("fix it\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "task.toml"), []byte("version = \"1.0\"\n[metadata]\ncodebase_loc = inf\n"), 0o644)
	_, err := Read(dir, Options{})
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "task.toml")+":3:1: metadata.codebase_loc") {
		t.Fatalf("err = %v", err)
	}
}

func FuzzParseTaskTOMLValues(f *testing.F) {
	f.Add([]byte("[metadata]\ncodebase_loc = inf\ndifficulty = \"hard\"\n"))
	f.Add([]byte("[environment]\ncpus = 2\nmemory = \"8G\"\n[task]\nid = \"a-1\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tt, err := ParseTaskTOML("t.toml", data)
		if err != nil {
			return
		}
		for k, v := range tt.Features {
			if v != v || v < 0 || v > 1e308 {
				t.Fatalf("feature %s = %v accepted", k, v)
			}
		}
	})
}

func TestReadRefusesHugeInstruction(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "big")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "instruction.md"), []byte(strings.Repeat("word ", 1<<20)), 0o644) // 5 MB, one line
	os.WriteFile(filepath.Join(dir, "task.toml"), []byte("version = \"1.0\"\n"), 0o644)
	_, err := Read(dir, Options{})
	if err == nil || !strings.Contains(err.Error(), "instruction.md: 5242880 bytes is over the 4 MB limit") {
		t.Fatalf("err = %v", err)
	}
}
