package validate

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"curate/pipeline"
)

// fakeEngine answers the Docker Engine API calls an image build makes:
// no image exists, and every build fails with the given output.
func fakeEngine(t *testing.T, buildLog []string) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var builds atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Api-Version", "1.43")
		switch {
		case strings.HasSuffix(r.URL.Path, "/_ping"):
			w.Write([]byte("OK"))
		case strings.Contains(r.URL.Path, "/images/") && strings.HasSuffix(r.URL.Path, "/json"):
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"message":"No such image"}`))
		case strings.HasSuffix(r.URL.Path, "/build"):
			builds.Add(1)
			w.Header().Set("Content-Type", "application/json")
			enc := json.NewEncoder(w)
			for i, l := range buildLog {
				if i == len(buildLog)-1 {
					enc.Encode(map[string]any{"error": l, "errorDetail": map[string]string{"message": l}})
					continue
				}
				enc.Encode(map[string]string{"stream": l + "\n"})
			}
		default:
			http.Error(w, `{"message":"unexpected `+r.URL.Path+`"}`, http.StatusNotImplemented)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &builds
}

// Every run of a task whose image does not build takes its failure class
// from the build's log, also the runs after the first, which do not build
// it again.
func TestBuildFailedRunsClassifiedFromBuildLog(t *testing.T) {
	cases := []struct {
		name, lang, repo string
		log              []string // build output; the last line is the builder's error
		class, evidence  string
		suggestion       string
	}{
		{name: "pip", lang: "python", repo: "acme/calc",
			log: []string{
				"Step 1/3 : FROM python:3.12-slim",
				" ---> 2d7f6c5d7a1e",
				"Step 2/3 : RUN pip install -r requirements.txt",
				" ---> Running in 4b1c0e8e9f11",
				"Collecting requests==2.31.0 (from -r requirements.txt (line 1))",
				"  Downloading requests-2.31.0-py3-none-any.whl.metadata (4.6 kB)",
				"ERROR: Could not find a version that satisfies the requirement acme-internal-utils==1.4 (from versions: none)",
				"ERROR: No matching distribution found for acme-internal-utils==1.4",
				"The command '/bin/sh -c pip install -r requirements.txt' returned a non-zero code: 1",
			},
			class: pipeline.ClassDepsMissing, evidence: "acme-internal-utils==1.4", suggestion: "pip install acme-internal-utils==1.4"},
		{name: "npm", lang: "javascript", repo: "acme/widgets",
			log: []string{
				"Step 1/3 : FROM node:20-bookworm",
				"Step 2/3 : RUN npm ci --no-audit --no-fund",
				" ---> Running in 0c3d7ab2f0e4",
				"npm error code E404",
				"npm error 404 Not Found - GET https://registry.npmjs.org/@acme%2fleft-pad-internal - Not found",
				"npm error 404",
				"npm error 404  '@acme/left-pad-internal@^2.0.0' is not in this registry.",
				"npm error A complete log of this run can be found in: /root/.npm/_logs/2026-11-25T08_12_01_123Z-debug-0.log",
				"The command '/bin/sh -c npm ci --no-audit --no-fund' returned a non-zero code: 1",
			},
			class: pipeline.ClassDepsMissing, evidence: "npm error 404 Not Found - GET https://registry.npmjs.org/@acme%2fleft-pad-internal", suggestion: "the npm registry has no https://registry.npmjs.org/@acme%2fleft-pad-internal"},
		{name: "maven", lang: "java", repo: "acme/ledger",
			log: []string{
				"Step 1/3 : FROM maven:3.9-eclipse-temurin-17",
				"Step 2/3 : RUN mvn -B -q dependency:go-offline",
				" ---> Running in 9a8b7c6d5e4f",
				"[ERROR] Failed to execute goal org.apache.maven.plugins:maven-dependency-plugin:3.6.1:go-offline (default-cli) on project ledger: " +
					"Could not resolve dependencies for project com.acme:ledger:jar:1.0: Failed to collect dependencies at junit:junit:jar:4.13.2: " +
					"Failed to read artifact descriptor for junit:junit:jar:4.13.2: The following artifacts could not be resolved: junit:junit:pom:4.13.2 (absent): " +
					"Could not transfer artifact junit:junit:pom:4.13.2 from/to central (https://repo.maven.apache.org/maven2): Connect timed out -> [Help 1]",
				"[ERROR] -> [Help 1]",
				"The command '/bin/sh -c mvn -B -q dependency:go-offline' returned a non-zero code: 1",
			},
			class: pipeline.ClassDepsUnreachable, evidence: "Could not resolve dependencies for project com.acme:ledger", suggestion: "Maven could not reach https://repo.maven.apache.org"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, builds := fakeEngine(t, tc.log)
			host := "tcp://" + strings.TrimPrefix(srv.URL, "http://")
			runner, err := NewDockerRunner(host, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			defer runner.Close()
			dir := t.TempDir()
			os.MkdirAll(filepath.Join(dir, "environment"), 0o755)
			os.WriteFile(filepath.Join(dir, "environment", "Dockerfile"), []byte(strings.TrimPrefix(tc.log[0], "Step 1/3 : ")+"\n"), 0o644)
			os.WriteFile(filepath.Join(dir, "task.toml"), nil, 0o644)
			logDir := t.TempDir()
			var seq atomic.Int32
			var mu sync.Mutex
			v := &Validator{Runners: []Runner{runner}, Concurrency: 1, Runs: 1, LogDir: logDir,
				NewID: func() string { return fmt.Sprint("r", seq.Add(1)) },
				Save:  func(context.Context, *pipeline.Run) error { mu.Lock(); defer mu.Unlock(); return nil }}
			var jobs []Job
			for _, m := range []string{ModeNop, ModeOracle, ModeGold} {
				jobs = append(jobs, Job{TaskID: "t1", TaskDir: dir, Mode: m, Language: tc.lang, Repo: tc.repo})
			}
			for _, r := range v.Validate(context.Background(), jobs) {
				if r.Outcome != pipeline.OutcomeBuildFailed {
					t.Fatalf("%s: outcome %s (%s), want build_failed", r.Mode, r.Outcome, r.Detail)
				}
				f := r.Failure
				if f == nil || f.Class != tc.class || !strings.Contains(f.Evidence, tc.evidence) || !strings.Contains(f.Suggestion, tc.suggestion) {
					log, _ := os.ReadFile(r.LogPath)
					t.Fatalf("%s run: failure %+v, want class %s with evidence %q; log:\n%s", r.Mode, f, tc.class, tc.evidence, log)
				}
			}
			if n := builds.Load(); n != 1 {
				t.Fatalf("the broken image was built %d times, want once", n)
			}
		})
	}
}

func TestTailBufferKeepsTheEnd(t *testing.T) {
	tb := &tailBuffer{max: 64}
	for i := 0; i < 100; i++ {
		fmt.Fprintf(tb, "line %d\n", i)
	}
	got := string(tb.Bytes())
	if !strings.HasSuffix(got, "line 99\n") || strings.Contains(got, "line 1\n") || !strings.HasPrefix(got, "curate: (the build output's first part is not kept") {
		t.Fatalf("tail %q", got)
	}
	if body := got[strings.IndexByte(got, '\n')+1:]; len(body) > 64 || !strings.HasPrefix(body, "line ") {
		t.Fatalf("tail body %q", body)
	}
}

// The engine's error for a cached layer removed between two build steps,
// as a concurrent test's cleanup caused it in CI (2026-11-26): the build
// runs again instead of failing as build_failed unclassified.
func TestVanishedLayerIsRetried(t *testing.T) {
	for _, msg := range []string{
		"build environment image: Step 6/6 : LABEL curate.workspace=/tmp/ws: failed to get digest sha256:a7c9e5eb1e4daea81d2c1f813c5464acef569278a478664f1eb11d6cbb3091c2: open /var/lib/docker/image/overlay2/imagedb/content/sha256/a7c9e5eb1e4daea81d2c1f813c5464acef569278a478664f1eb11d6cbb3091c2: no such file or directory",
		"build environment image: Step 3/6 : RUN true: No such image: sha256:a7c9e5eb1e4daea81d2c1f813c5464acef569278a478664f1eb11d6cbb3091c2",
	} {
		if !vanishedLayerRe.MatchString(msg) {
			t.Errorf("not taken for a vanished layer: %s", msg)
		}
	}
	for _, msg := range []string{
		"build environment image: Step 4/6 : RUN make: The command '/bin/sh -c make' returned a non-zero code: 2",
		"build environment image: Step 1/6 : FROM curate/base:bookworm: No such image: curate/base:bookworm",
	} {
		if vanishedLayerRe.MatchString(msg) {
			t.Errorf("taken for a vanished layer: %s", msg)
		}
	}
	// Against an engine that keeps failing this way: built twice, not more.
	vanished := "failed to get digest sha256:a7c9e5eb1e4daea81d2c1f813c5464acef569278a478664f1eb11d6cbb3091c2: open /var/lib/docker/image/overlay2/imagedb/content/sha256/a7c9e5eb1e4daea81d2c1f813c5464acef569278a478664f1eb11d6cbb3091c2: no such file or directory"
	srv, builds := fakeEngine(t, []string{"Step 1/2 : FROM scratch", "Step 2/2 : LABEL a=b", vanished})
	runner, err := NewDockerRunner("tcp://"+strings.TrimPrefix(srv.URL, "http://"), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer runner.Close()
	env := t.TempDir()
	os.WriteFile(filepath.Join(env, "Dockerfile"), []byte("FROM scratch\nLABEL a=b\n"), 0o644)
	var out strings.Builder
	if _, _, err := runner.dirImage(context.Background(), env, nil, &out); err == nil || !strings.Contains(err.Error(), "failed to get digest") {
		t.Fatalf("error %v", err)
	}
	if n := builds.Load(); n != 2 || !strings.Contains(out.String(), "building again") {
		t.Fatalf("%d builds, want 2; output:\n%s", n, out.String())
	}
}
