package github

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	gh "github.com/google/go-github/v62/github"
)

// A GitHub API server (or something answering in its place) is trusted
// for data, never for how long curate waits or how many requests it
// makes: every wait it asks for is capped by MaxWait, 429 and 5xx answers
// are retried a bounded number of times, and pagination stops when its
// Link header repeats or goes back.

// DefaultMaxWait caps one wait (a rate limit's reset, a Retry-After)
// when Miner.MaxWait is zero.
const DefaultMaxWait = time.Hour

// maxBackoff caps the wait before retrying a 429 or 5xx with no
// Retry-After.
const maxBackoff = 2 * time.Minute

// WaitError is a wait the server asked for that is longer than MaxWait:
// the mine stops there (what it mined is saved) instead of sleeping.
type WaitError struct {
	What  string
	Why   string
	Wait  time.Duration
	Until time.Time
	Max   time.Duration
}

func (e *WaitError) Error() string {
	return fmt.Sprintf("%s: %s; the server asks to wait %s (until %s), more than --max-wait %s: stopped; what was mined is saved, run the same command again after that time to continue",
		e.What, e.Why, e.Wait.Round(time.Second), e.Until.UTC().Format("2006-01-02 15:04 UTC"), e.Max)
}

// call runs one API request: rate limits are waited out (each wait at
// most MaxWait), 429 and 5xx answers retried with backoff, at most
// MaxRetries times in all.
func (m *Miner) call(ctx context.Context, what string, do func() (*gh.Response, error)) (*gh.Response, error) {
	retries := m.MaxRetries
	if retries == 0 {
		retries = 8
	}
	maxWait := m.MaxWait
	if maxWait <= 0 {
		maxWait = DefaultMaxWait
	}
	for attempt := 0; ; attempt++ {
		resp, err := do()
		if err == nil {
			return resp, nil
		}
		wait, why, ok := retryWait(err, attempt)
		if !ok {
			return resp, fmt.Errorf("%s: %w", what, describe(err))
		}
		if attempt >= retries {
			return resp, fmt.Errorf("%s: still failing after %d retries: %w", what, attempt, describe(err))
		}
		wait = max(wait, time.Second)
		if wait > maxWait {
			return resp, &WaitError{What: what, Why: why, Wait: wait, Until: time.Now().Add(wait), Max: maxWait}
		}
		m.notify("%s on %s; waiting %s, resuming at %s", why, what, wait.Round(time.Second), time.Now().Add(wait).UTC().Format("15:04:05 UTC"))
		if err := m.sleep(ctx, wait); err != nil {
			return resp, err
		}
	}
}

// retryWait says whether err is worth a retry and after how long.
func retryWait(err error, attempt int) (time.Duration, string, bool) {
	var primary *gh.RateLimitError
	var secondary *gh.AbuseRateLimitError
	var er *gh.ErrorResponse
	switch {
	case errors.As(err, &primary):
		return time.Until(primary.Rate.Reset.Time) + time.Second, "GitHub rate limit reached", true
	case errors.As(err, &secondary):
		if secondary.RetryAfter != nil {
			return *secondary.RetryAfter, "GitHub secondary rate limit (Retry-After)", true
		}
		return time.Minute, "GitHub secondary rate limit", true
	case errors.As(err, &er) && er.Response != nil && (er.Response.StatusCode == http.StatusTooManyRequests || er.Response.StatusCode >= 500):
		why := fmt.Sprintf("GitHub answered %d", er.Response.StatusCode)
		if d, ok := retryAfter(er.Response.Header.Get("Retry-After")); ok {
			return d, why + " (Retry-After)", true
		}
		return min(time.Second<<min(attempt, 10), maxBackoff), why, true
	}
	return 0, "", false
}

// retryAfter reads a Retry-After header: seconds or an HTTP date.
func retryAfter(v string) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 {
		if n > int64(100*365*24*3600) { // beyond any cap; avoid overflowing Duration
			n = 100 * 365 * 24 * 3600
		}
		return time.Duration(n) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return time.Until(t), true
	}
	return 0, false
}

// maxBodyQuote is how much of a non-JSON error body a message quotes.
const maxBodyQuote = 200

// describe turns an API error into a clear message: 404 and 401 in
// words, any other status with its code and, when the body is not
// GitHub's JSON (a proxy's HTML page), its first 200 bytes.
func describe(err error) error {
	var er *gh.ErrorResponse
	if !errors.As(err, &er) || er.Response == nil {
		return err
	}
	switch er.Response.StatusCode {
	case http.StatusNotFound:
		return fmt.Errorf("not found (404): the repository or item does not exist, or it is private and needs GITHUB_TOKEN")
	case http.StatusUnauthorized:
		return fmt.Errorf("unauthorized (401): the token is invalid or expired")
	}
	if er.Message != "" || er.Response.Body == nil {
		return err
	}
	body, _ := io.ReadAll(io.LimitReader(er.Response.Body, maxBodyQuote+1))
	quoted := strconv.Quote(string(body[:min(len(body), maxBodyQuote)]))
	if len(body) > maxBodyQuote {
		quoted += "…"
	}
	return fmt.Errorf("HTTP %d %s from %s %s: body %s", er.Response.StatusCode, http.StatusText(er.Response.StatusCode),
		er.Response.Request.Method, er.Response.Request.URL.Redacted(), quoted)
}

// maxPages bounds one listing: 10,000 pages of 100 is ten times the
// closed pull requests of the busiest repositories on GitHub.
const maxPages = 10_000

// pager follows one listing's pages and stops when GitHub's Link header
// repeats a page, goes back to one, promises more after an empty page,
// or passes maxPages: a server doing that would otherwise be asked
// forever.
type pager struct {
	m    *Miner
	what string
	seen map[int]bool
}

func newPager(m *Miner, what string) *pager {
	return &pager{m: m, what: what, seen: map[int]bool{1: true}}
}

// next is the page to fetch after one with n items answered by resp, or
// 0 to stop.
func (p *pager) next(resp *gh.Response, n int) int {
	if resp == nil || resp.NextPage == 0 {
		return 0
	}
	if n == 0 || p.seen[resp.NextPage] {
		p.m.notify("%s: the server's Link header points to page %d again (or past an empty page); stopping there", p.what, resp.NextPage)
		return 0
	}
	if len(p.seen) >= maxPages {
		p.m.notify("%s: more than %d pages; stopping there", p.what, maxPages)
		return 0
	}
	p.seen[resp.NextPage] = true
	return resp.NextPage
}
