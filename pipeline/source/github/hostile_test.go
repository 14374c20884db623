package github

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"curate/pipeline/source"
)

// hostile serves GitHub's shapes for acme/calc, with handler deciding the
// pull request listing; it counts requests.
func hostile(t *testing.T, pulls http.HandlerFunc) (*Miner, *int64, *[]time.Duration) {
	t.Helper()
	var n int64
	mux := http.NewServeMux()
	mux.HandleFunc("/repos/acme/calc/pulls", func(w http.ResponseWriter, r *http.Request) {
		atomic.AddInt64(&n, 1)
		pulls(w, r)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	c, err := NewClient(srv.URL, "")
	if err != nil {
		t.Fatal(err)
	}
	var waits []time.Duration
	m := &Miner{Client: c, MaxRetries: 3, Sleep: func(ctx context.Context, d time.Duration) error {
		waits = append(waits, d)
		return nil
	}}
	return m, &n, &waits
}

func mine(m *Miner) error {
	return m.Mine(context.Background(), Options{Owner: "acme", Name: "calc"}, &Repo{DefaultBranch: "main"}, func(*source.PR) error { return nil })
}

// A rate limit resetting in 2100 or a Retry-After of 31 years is not
// waited out: the mine stops at once with a message saying how to go on.
func TestWaitsCappedByMaxWait(t *testing.T) {
	for name, h := range map[string]http.HandlerFunc{
		"reset in 2100": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("X-RateLimit-Limit", "60")
			w.Header().Set("X-RateLimit-Remaining", "0")
			w.Header().Set("X-RateLimit-Reset", "4102444800")
			w.WriteHeader(http.StatusForbidden)
			fmt.Fprint(w, `{"message": "API rate limit exceeded"}`)
		},
		"Retry-After 999999999": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "999999999")
			w.WriteHeader(http.StatusTooManyRequests)
			fmt.Fprint(w, `{"message": "slow down"}`)
		},
	} {
		m, n, waits := hostile(t, h)
		err := mine(m)
		var we *WaitError
		if !errors.As(err, &we) || len(*waits) > 0 || *n != 1 ||
			!strings.Contains(err.Error(), "more than --max-wait 1h0m0s: stopped") || !strings.Contains(err.Error(), "run the same command again") {
			t.Errorf("%s: err %v, waits %v, %d requests", name, err, *waits, *n)
		}
	}
}

// 429 and 5xx answers are retried with growing waits, a bounded number
// of times; a non-JSON error body is quoted (200 bytes) with its status.
func TestRetriesBoundedAndBodyQuoted(t *testing.T) {
	var calls int64
	m, _, waits := hostile(t, func(w http.ResponseWriter, r *http.Request) {
		if atomic.AddInt64(&calls, 1) <= 2 {
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		fmt.Fprint(w, `[]`)
	})
	if err := mine(m); err != nil || len(*waits) != 2 || (*waits)[0] != time.Second || (*waits)[1] != 2*time.Second {
		t.Fatalf("429 twice then ok: err %v, waits %v", err, *waits)
	}
	html := "<html><body>" + strings.Repeat("Bad gateway. ", 40) + "</body></html>"
	m, n, waits := hostile(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadGateway)
		fmt.Fprint(w, html)
	})
	err := mine(m)
	if err == nil || *n != 4 || len(*waits) != 3 || !strings.Contains(err.Error(), "still failing after 3 retries") ||
		!strings.Contains(err.Error(), "HTTP 502 Bad Gateway") || !strings.Contains(err.Error(), `"`+html[:200]+`"…`) {
		t.Fatalf("502: err %v, %d requests, waits %v", err, *n, *waits)
	}
}

// A Link header that points back to a page already read, or promises
// more after an empty page, stops the listing instead of looping.
func TestPaginationStopsOnCyclingLink(t *testing.T) {
	for name, next := range map[string]func(page string) string{
		"same page":    func(page string) string { return page },
		"back to one":  func(string) string { return "1" },
		"endless next": func(page string) string { return page + "0" }, // 1, 10, 100, ... empty pages
	} {
		var srvURL string
		m, n, _ := hostile(t, func(w http.ResponseWriter, r *http.Request) {
			page := r.URL.Query().Get("page")
			if page == "" {
				page = "1"
			}
			w.Header().Set("Link", fmt.Sprintf(`<%s/repos/acme/calc/pulls?page=%s>; rel="next"`, srvURL, next(page)))
			if page == "1" || name != "endless next" {
				fmt.Fprint(w, `[{"number": 7, "state": "closed"}]`) // unmerged: skipped
				return
			}
			fmt.Fprint(w, `[]`)
		})
		srvURL = strings.TrimSuffix(m.Client.BaseURL.String(), "/")
		done := make(chan error, 1)
		go func() { done <- mine(m) }()
		select {
		case err := <-done:
			if err != nil || *n > 3 {
				t.Errorf("%s: err %v after %d requests", name, err, *n)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("%s: still paging after %d requests", name, atomic.LoadInt64(n))
		}
	}
}

// A clone URL that git would read as an option is refused, and git gets
// "--" before the URL anyway.
func TestCloneURLNeverAnOption(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "pwned")
	err := Clone(context.Background(), "--upload-pack=touch "+marker, filepath.Join(t.TempDir(), "c.git"))
	if err == nil || !strings.Contains(err.Error(), "want http(s), ssh or file://") {
		t.Fatalf("err %v", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("git ran the option")
	}
}
