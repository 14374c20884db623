package validate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"curate/pipeline"
	"curate/pipeline/validate/parse"
)

func TestReadReward(t *testing.T) {
	cases := []struct {
		name      string
		res       ExecResult
		want      float64
		wantClass pipeline.Outcome // "" = no error
	}{
		{"txt one", ExecResult{HasText: true, RewardText: []byte("1\n")}, 1, ""},
		{"txt zero", ExecResult{HasText: true, RewardText: []byte("0")}, 0, ""},
		{"json wins over txt", ExecResult{HasText: true, RewardText: []byte("0"), HasJSON: true, RewardJSON: []byte(`{"reward": 1}`)}, 1, ""},
		{"json only key", ExecResult{HasJSON: true, RewardJSON: []byte(`{"accuracy": 0.5}`)}, 0.5, ""},
		{"missing", ExecResult{}, 0, pipeline.OutcomeRewardMissing},
		{"empty txt", ExecResult{HasText: true, RewardText: []byte(" \n")}, 0, pipeline.OutcomeRewardMissing},
		{"empty json", ExecResult{HasJSON: true}, 0, pipeline.OutcomeRewardMissing},
		{"abc", ExecResult{HasText: true, RewardText: []byte("abc\n")}, 0, pipeline.OutcomeRewardInvalid},
		{"nan", ExecResult{HasText: true, RewardText: []byte("NaN")}, 0, pipeline.OutcomeRewardInvalid},
		{"json list", ExecResult{HasJSON: true, RewardJSON: []byte(`[1]`)}, 0, pipeline.OutcomeRewardInvalid},
		{"json string value", ExecResult{HasJSON: true, RewardJSON: []byte(`{"reward": "1"}`)}, 0, pipeline.OutcomeRewardInvalid},
		{"json ambiguous keys", ExecResult{HasJSON: true, RewardJSON: []byte(`{"a": 1, "b": 0}`)}, 0, pipeline.OutcomeRewardInvalid},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ReadReward(&tc.res)
			if tc.wantClass == "" {
				if err != nil || got != tc.want {
					t.Fatalf("got %v, %v; want %v", got, err, tc.want)
				}
				return
			}
			re, ok := err.(*RewardError)
			if !ok || re.Outcome != tc.wantClass {
				t.Fatalf("err %v, want class %s", err, tc.wantClass)
			}
		})
	}
}

func TestJudgeReward(t *testing.T) {
	txt := func(s string) *ExecResult { return &ExecResult{HasText: true, RewardText: []byte(s)} }
	cases := []struct {
		mode, reward string
		want         pipeline.Outcome
	}{
		{ModeNop, "0", pipeline.OutcomeOK},
		{ModeNop, "1", pipeline.OutcomeNopPassed},
		{ModeNop, "0.5", pipeline.OutcomeRewardInvalid},
		{ModeOracle, "1.0", pipeline.OutcomeOK},
		{ModeOracle, "0", pipeline.OutcomeOracleFailed},
		{ModeOracle, "2", pipeline.OutcomeRewardInvalid},
	}
	for _, tc := range cases {
		if got := judgeReward(tc.mode, txt(tc.reward)); got.outcome != tc.want {
			t.Errorf("%s reward %s: %s, want %s", tc.mode, tc.reward, got.outcome, tc.want)
		}
	}
}

func rep(pairs ...string) *parse.Report {
	r := &parse.Report{Tests: map[string]parse.Status{}, Ran: true}
	for i := 0; i < len(pairs); i += 2 {
		r.Tests[pairs[i]] = parse.Status(pairs[i+1])
	}
	return r
}

func TestGoldLists(t *testing.T) {
	ok := pipeline.OutcomeOK
	cases := []struct {
		name         string
		as           []attempt
		f2p, p2p, fl []string
		outcome      pipeline.Outcome
	}{
		{"fail, error and crash-missing flip; skipped ignored",
			[]attempt{{outcome: ok,
				buggy: rep("a", "PASSED", "b", "FAILED", "c", "ERROR", "s", "SKIPPED"),
				fixed: rep("a", "PASSED", "b", "PASSED", "c", "PASSED", "d", "PASSED", "s", "SKIPPED", "x", "FAILED")}},
			[]string{"b", "c", "d"}, []string{"a"}, nil, ok},
		{"flaky test in neither list",
			[]attempt{
				{outcome: ok, buggy: rep("a", "PASSED", "b", "FAILED"), fixed: rep("a", "PASSED", "b", "PASSED")},
				{outcome: ok, buggy: rep("a", "FAILED", "b", "FAILED"), fixed: rep("a", "PASSED", "b", "PASSED")}},
			[]string{"b"}, nil, []string{"a"}, pipeline.OutcomeFlaky},
		{"nothing flips",
			[]attempt{{outcome: ok, buggy: rep("a", "PASSED"), fixed: rep("a", "PASSED")}},
			nil, []string{"a"}, nil, pipeline.OutcomeNopPassed},
		{"fix passes nothing",
			[]attempt{{outcome: ok, buggy: rep("a", "FAILED"), fixed: rep("a", "FAILED")}},
			nil, nil, nil, pipeline.OutcomeOracleFailed},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			run := &pipeline.Run{}
			summarize(ModeGold, tc.as, run, nil)
			if run.Outcome != tc.outcome || !reflect.DeepEqual(run.FailToPass, tc.f2p) || !reflect.DeepEqual(run.PassToPass, tc.p2p) || !reflect.DeepEqual(run.Flaky, tc.fl) {
				t.Fatalf("outcome %s f2p %v p2p %v flaky %v", run.Outcome, run.FailToPass, run.PassToPass, run.Flaky)
			}
		})
	}
}

func TestSummarizeRepeats(t *testing.T) {
	one, zero := 1.0, 0.0
	ok := attempt{outcome: pipeline.OutcomeOK, reward: &one}
	bad := attempt{outcome: pipeline.OutcomeOracleFailed, reward: &zero}
	cases := []struct {
		as   []attempt
		want pipeline.Outcome
	}{
		{[]attempt{ok, ok, ok}, pipeline.OutcomeOK},
		{[]attempt{bad, bad}, pipeline.OutcomeOracleFailed},
		{[]attempt{ok, bad, ok, bad}, pipeline.OutcomeFlaky},
		{[]attempt{ok, {outcome: pipeline.OutcomeTimeout}}, pipeline.OutcomeFlaky},
		{[]attempt{ok, {outcome: pipeline.OutcomeInfraError}}, pipeline.OutcomeInfraError},
		{[]attempt{{outcome: pipeline.OutcomeCancelled}}, pipeline.OutcomeCancelled},
	}
	for i, tc := range cases {
		run := &pipeline.Run{}
		summarize(ModeOracle, tc.as, run, nil)
		if run.Outcome != tc.want || run.Attempt != len(tc.as) {
			t.Errorf("case %d: %s (%d attempts), want %s", i, run.Outcome, run.Attempt, tc.want)
		}
	}
}

func writeFile(t *testing.T, path, body string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestReadTaskConfig(t *testing.T) {
	cases := []struct {
		toml    string
		want    TaskConfig
		wantErr string
	}{
		{"", TaskConfig{NetworkMode: "no-network", AgentNetworkMode: "no-network", PidsLimit: 4096, BuildTimeout: 600 * time.Second, RewardStrategy: "mean"}, ""},
		{"[environment]\ncpus = 2\nmemory_mb = 512\nnetwork_mode = \"public\"\n[verifier]\ntimeout_sec = 30\nuser = \"app\"\nenv = {A = \"1\"}\n",
			TaskConfig{NetworkMode: "public", AgentNetworkMode: "public", CPUs: 2, MemoryMB: 512, PidsLimit: 4096, User: "app", Env: map[string]string{"A": "1"},
				VerifierTimeout: 30 * time.Second, BuildTimeout: 600 * time.Second, RewardStrategy: "mean"}, ""},
		{"[environment]\nmemory = \"2G\"\nallow_internet = true\n",
			TaskConfig{NetworkMode: "public", AgentNetworkMode: "public", MemoryMB: 2048, PidsLimit: 4096, BuildTimeout: 600 * time.Second, RewardStrategy: "mean"}, ""},
		{"[environment]\nnetwork_mode = \"public\"\n[verifier]\nnetwork_mode = \"no-network\"\n",
			TaskConfig{NetworkMode: "no-network", AgentNetworkMode: "public", PidsLimit: 4096, BuildTimeout: 600 * time.Second, RewardStrategy: "mean"}, ""},
		{"[environment]\nnetwork_mode = \"wide-open\"\n", TaskConfig{}, "environment.network_mode"},
		{"[environment]\ncpus = \"many\"\n", TaskConfig{}, "environment.cpus"},
		{"[environment\n", TaskConfig{}, "task.toml:1:"},
	}
	for i, tc := range cases {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "task.toml"), tc.toml)
		got, err := ReadTaskConfig(dir)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), "task.toml") {
				t.Errorf("case %d: err %v, want mention of %q", i, err, tc.wantErr)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(*got, tc.want) {
			t.Errorf("case %d: got %+v, %v\nwant %+v", i, got, err, tc.want)
		}
	}
}

func FuzzReadTaskConfig(f *testing.F) {
	f.Add("[environment]\ncpus = 2\nmemory = \"8G\"\n[verifier]\ntimeout_sec = 1.5\n")
	f.Fuzz(func(t *testing.T, text string) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "task.toml"), []byte(text), 0o644)
		cfg, err := ReadTaskConfig(dir)
		if err == nil && (cfg.PidsLimit < 1 || cfg.VerifierTimeout < 0 || cfg.CPUs < 0 || cfg.MemoryMB < 0) {
			t.Fatalf("accepted bad config %+v", cfg)
		}
	})
}

func FuzzReadReward(f *testing.F) {
	f.Add([]byte(`{"reward": 1}`), []byte("0"))
	f.Fuzz(func(t *testing.T, js, txt []byte) {
		for _, res := range []*ExecResult{{HasJSON: true, RewardJSON: js}, {HasText: true, RewardText: txt}} {
			_, err := ReadReward(res)
			if err != nil {
				if _, ok := err.(*RewardError); !ok {
					t.Fatalf("unexpected error type %T", err)
				}
			}
		}
	})
}

func TestEnvDigestAndSymlinks(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "environment", "Dockerfile"), "FROM x\n")
	d1, err := EnvDigest(dir)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "tests", "test.sh"), "echo\n") // outside environment/: same image
	if d2, _ := EnvDigest(dir); d2 != d1 {
		t.Fatal("tests/ changed the environment digest")
	}
	writeFile(t, filepath.Join(dir, "environment", "bug.patch"), "x")
	if d3, _ := EnvDigest(dir); d3 == d1 {
		t.Fatal("a new environment file kept the digest")
	}
	os.Symlink("bug.patch", filepath.Join(dir, "environment", "inside"))
	if _, err := EnvDigest(dir); err != nil {
		t.Fatalf("a link inside the folder is fine: %v", err)
	}
	os.Symlink("../../etc", filepath.Join(dir, "environment", "outside"))
	if _, err := EnvDigest(dir); err == nil || !strings.Contains(err.Error(), "leaves") {
		t.Fatalf("want refusal, got %v", err)
	}
}

func TestDebianMirror(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "debian.sources"), "Types: deb\nURIs: http://mirror.example/debian-security\nSuites: bookworm-security\n\nTypes: deb\nURIs: http://mirror.example/debian/\nSuites: bookworm\n")
	if got := DebianMirror(dir, "/nonexistent"); got != "http://mirror.example/debian" {
		t.Fatalf("got %s", got)
	}
	list := filepath.Join(t.TempDir(), "sources.list")
	writeFile(t, list, "deb [arch=amd64] http://ftp.example/debian bookworm main\n")
	if got := DebianMirror("/nonexistent", list); got != "http://ftp.example/debian" {
		t.Fatalf("got %s", got)
	}
	if got := DebianMirror("/nonexistent", "/nonexistent"); got != DefaultMirror {
		t.Fatalf("got %s", got)
	}
}

func TestParseModes(t *testing.T) {
	if m, err := ParseModes("oracle, nop,oracle"); err != nil || !reflect.DeepEqual(m, []string{"oracle", "nop"}) {
		t.Fatalf("%v %v", m, err)
	}
	for _, bad := range []string{"", "nop,fast"} {
		if _, err := ParseModes(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestUpdateSWEBenchRecord(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "swebench.json"), `{"instance_id": "o__r-1", "FAIL_TO_PASS": "[]", "PASS_TO_PASS": [], "extra": {"k": 1}}`)
	if err := UpdateSWEBenchRecord(dir, []string{"t1"}, []string{"t2", "t3"}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "swebench.json"))
	var rec map[string]any
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatal(err)
	}
	if rec["FAIL_TO_PASS"] != `["t1"]` || !reflect.DeepEqual(rec["PASS_TO_PASS"], []any{"t2", "t3"}) || rec["instance_id"] != "o__r-1" || rec["extra"] == nil {
		t.Fatalf("record %v", rec)
	}
	writeFile(t, filepath.Join(dir, "swebench.json"), "{broken")
	if err := UpdateSWEBenchRecord(dir, nil, nil); err == nil || !strings.Contains(err.Error(), "swebench.json") {
		t.Fatalf("want error naming the file, got %v", err)
	}
}

func TestReadBuildStream(t *testing.T) {
	stream := `{"stream":"Step 1/2 : FROM x\n"}
{"stream":"Step 2/2 : RUN make\n"}
{"stream":"cc: error\n"}
{"errorDetail":{"message":"The command '/bin/sh -c make' returned a non-zero code: 2"},"error":"The command '/bin/sh -c make' returned a non-zero code: 2"}
`
	var out strings.Builder
	err := readBuildStream(strings.NewReader(stream), &out)
	be, ok := err.(*BuildError)
	if !ok || be.Step != "Step 2/2 : RUN make" || !strings.Contains(be.Error(), "non-zero code: 2") || !strings.Contains(out.String(), "cc: error") {
		t.Fatalf("err %v, out %q", err, out.String())
	}
	disk := `{"error":"write /var/lib/docker/tmp/x: no space left on device"}`
	if err := readBuildStream(strings.NewReader(disk), nil); !IsInfra(err) {
		t.Fatalf("out of disk should be infra, got %v", err)
	}
	if err := readBuildStream(strings.NewReader("{bad"), nil); !IsInfra(err) {
		t.Fatalf("garbled stream should be infra, got %v", err)
	}
}
