package github

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"curate/internal/fixtures"
)

// fakeGitHub serves acme/calc the way api.github.com does: JSON bodies of
// the real shapes, Link pagination, X-RateLimit-* headers, a primary
// limit (403 with remaining 0), a secondary limit (403 + Retry-After),
// 404s, a merged and an unmerged PR. The merge commits are those of the
// fixture repository, whose path is the clone_url.
type fakeGitHub struct {
	*httptest.Server
	project fixtures.Project
	mu      sync.Mutex
	hits    map[string]int
	limited map[string]bool
}

func newFakeGitHub(t *testing.T) *fakeGitHub {
	t.Helper()
	p, err := fixtures.PythonRepo(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	sha := func(rev string) string {
		out, err := exec.Command("git", "-C", p.Path, "rev-parse", rev).Output()
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	f := &fakeGitHub{project: p, hits: map[string]int{}, limited: map[string]bool{}}
	merge1, squash2 := sha("HEAD~1"), sha("HEAD")
	user := map[string]any{"login": "dev", "id": 1, "type": "User"}
	pr := func(n int, title, body, merged, mergeSHA string) map[string]any {
		m := map[string]any{
			"url": fmt.Sprintf("https://api.github.com/repos/acme/calc/pulls/%d", n), "id": 1000 + n, "number": n,
			"state": "closed", "locked": false, "title": title, "body": body, "user": user,
			"created_at": "2025-01-01T00:00:00Z", "updated_at": fmt.Sprintf("2025-01-0%dT00:00:00Z", 2+n),
			"closed_at": "2025-01-02T00:00:00Z", "merged_at": nil, "merge_commit_sha": mergeSHA,
			"head": map[string]any{"label": "acme:branch", "ref": "branch", "sha": mergeSHA},
			"base": map[string]any{"label": "acme:main", "ref": "main", "sha": mergeSHA},
		}
		if merged != "" {
			m["merged_at"] = merged
		}
		return m
	}
	file := func(name, status string, add, del int) map[string]any {
		return map[string]any{"sha": "0123456789abcdef0123456789abcdef01234567", "filename": name, "status": status,
			"additions": add, "deletions": del, "changes": add + del, "patch": "@@ -1 +1 @@\n-a\n+b",
			"blob_url": "https://github.com/acme/calc/blob/x/" + name, "raw_url": "https://github.com/acme/calc/raw/x/" + name}
	}
	mux := http.NewServeMux()
	var srv *httptest.Server
	rate := func(w http.ResponseWriter, remaining int) {
		w.Header().Set("X-RateLimit-Limit", "5000")
		w.Header().Set("X-RateLimit-Remaining", fmt.Sprint(remaining))
		w.Header().Set("X-RateLimit-Used", fmt.Sprint(5000-remaining))
		w.Header().Set("X-RateLimit-Reset", fmt.Sprint(time.Now().Add(time.Hour).Unix()))
		w.Header().Set("X-RateLimit-Resource", "core")
	}
	writeJSON := func(w http.ResponseWriter, status int, v any) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(v)
	}
	link := func(r *http.Request, next, last int) string {
		u := *r.URL
		q := u.Query()
		q.Set("page", fmt.Sprint(next))
		u.RawQuery = q.Encode()
		nextURL := srv.URL + u.String()
		q.Set("page", fmt.Sprint(last))
		u.RawQuery = q.Encode()
		return fmt.Sprintf(`<%s>; rel="next", <%s>; rel="last"`, nextURL, srv.URL+u.String())
	}
	// once returns true the first time key is seen (for one-off limits).
	once := func(key string) bool {
		f.mu.Lock()
		defer f.mu.Unlock()
		if f.limited[key] {
			return false
		}
		f.limited[key] = true
		return true
	}
	mux.HandleFunc("GET /repos/acme/calc", func(w http.ResponseWriter, r *http.Request) {
		rate(w, 4999)
		writeJSON(w, 200, map[string]any{"id": 1, "name": "calc", "full_name": "acme/calc", "default_branch": "main",
			"clone_url": "file://" + p.Path, "owner": user, "private": false})
	})
	mux.HandleFunc("GET /repos/acme/missing", func(w http.ResponseWriter, r *http.Request) {
		rate(w, 4998)
		writeJSON(w, 404, map[string]any{"message": "Not Found", "documentation_url": "https://docs.github.com/rest/repos/repos#get-a-repository", "status": "404"})
	})
	mux.HandleFunc("GET /repos/acme/calc/pulls", func(w http.ResponseWriter, r *http.Request) {
		page := r.URL.Query().Get("page")
		if r.URL.Query().Get("state") != "closed" {
			writeJSON(w, 422, map[string]any{"message": "want state=closed"})
			return
		}
		switch page {
		case "", "1":
			rate(w, 4990)
			w.Header().Set("Link", link(r, 2, 2))
			writeJSON(w, 200, []any{
				pr(3, "Try a rewrite", "never merged", "", "0000000000000000000000000000000000000003"),
				pr(2, "Support percentages", "Percent strings cannot be parsed.\n\nCloses #12", "2025-01-04T00:00:00Z", squash2),
			})
		case "2":
			if once("pulls-2") {
				w.Header().Set("Retry-After", "1")
				writeJSON(w, 403, map[string]any{"message": "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
					"documentation_url": "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"})
				return
			}
			rate(w, 4989)
			writeJSON(w, 200, []any{pr(1, "Division drops the fractional part", "See the linked issue.", "2025-01-02T00:00:00Z", merge1)})
		}
	})
	mux.HandleFunc("GET /repos/acme/calc/pulls/{n}/files", func(w http.ResponseWriter, r *http.Request) {
		f.hit("files " + r.PathValue("n"))
		switch r.PathValue("n") {
		case "1":
			if once("files-1") { // a primary limit: remaining 0, reset in a second
				w.Header().Set("X-RateLimit-Limit", "5000")
				w.Header().Set("X-RateLimit-Remaining", "0")
				w.Header().Set("X-RateLimit-Reset", fmt.Sprint(time.Now().Add(time.Second).Unix()))
				writeJSON(w, 403, map[string]any{"message": "API rate limit exceeded for user ID 1.", "documentation_url": "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api"})
				return
			}
			rate(w, 4980)
			writeJSON(w, 200, []any{file("calc/fmt.py", "modified", 3, 1), file("calc/ops.py", "modified", 1, 1), file("calc/parse.py", "modified", 2, 1), file("tests/test_ops.py", "modified", 12, 1)})
		case "2":
			rate(w, 4980)
			if r.URL.Query().Get("page") != "2" {
				w.Header().Set("Link", link(r, 2, 2))
				writeJSON(w, 200, []any{file("calc/fmt.py", "modified", 5, 0), file("calc/ops.py", "modified", 4, 0)})
				return
			}
			bin := file("assets/icon.png", "added", 0, 0)
			delete(bin, "patch")
			writeJSON(w, 200, []any{file("calc/parse.py", "modified", 4, 0), file("tests/test_percent.py", "added", 9, 0), bin})
		default:
			writeJSON(w, 404, map[string]any{"message": "Not Found"})
		}
	})
	mux.HandleFunc("GET /repos/acme/calc/issues/{n}/timeline", func(w http.ResponseWriter, r *http.Request) {
		rate(w, 4970)
		events := []any{map[string]any{"event": "labeled", "actor": user, "created_at": "2025-01-01T00:00:00Z"}}
		if r.PathValue("n") == "1" {
			events = append(events,
				map[string]any{"event": "cross-referenced", "actor": user, "created_at": "2025-01-01T00:00:00Z",
					"source": map[string]any{"type": "issue", "issue": map[string]any{"number": 11, "title": "divide(1, 2) is 0", "state": "closed",
						"repository": map[string]any{"full_name": "acme/calc", "name": "calc"}}}},
				map[string]any{"event": "cross-referenced", "actor": user, "created_at": "2025-01-01T00:00:00Z",
					"source": map[string]any{"type": "issue", "issue": map[string]any{"number": 40, "title": "a PR",
						"pull_request": map[string]any{"url": "https://api.github.com/repos/acme/calc/pulls/40"},
						"repository":   map[string]any{"full_name": "acme/calc"}}}})
		}
		writeJSON(w, 200, events)
	})
	mux.HandleFunc("GET /repos/acme/calc/issues/{n}", func(w http.ResponseWriter, r *http.Request) {
		rate(w, 4960)
		switch r.PathValue("n") {
		case "11":
			writeJSON(w, 200, map[string]any{"number": 11, "title": "divide(1, 2) returns 0", "body": "Expected 0.5 from divide(1, 2).", "state": "closed", "user": user})
		default: // issue 12 was deleted
			writeJSON(w, 404, map[string]any{"message": "Not Found", "documentation_url": "https://docs.github.com/rest/issues/issues#get-an-issue"})
		}
	})
	srv = httptest.NewServer(mux)
	f.Server = srv
	t.Cleanup(srv.Close)
	return f
}

func (f *fakeGitHub) hit(key string) {
	f.mu.Lock()
	f.hits[key]++
	f.mu.Unlock()
}

func (f *fakeGitHub) count(key string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.hits[key]
}
