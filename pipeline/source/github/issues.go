package github

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	gh "github.com/google/go-github/v62/github"

	"curate/internal/atomicfile"
	"curate/pipeline/source"
)

// IssueCache keeps fetched issue texts between runs, so a stopped fetch
// resumes and a second mine asks the API nothing it already asked.
type IssueCache struct {
	Repo   string                 `json:"repo"`
	Issues map[string]CachedIssue `json:"issues"` // by number
}

// CachedIssue is one issue's text, or that it does not exist (404).
type CachedIssue struct {
	Title   string `json:"title,omitempty"`
	Body    string `json:"body,omitempty"`
	Missing bool   `json:"missing,omitempty"`
}

// IssueFetch is what FetchIssueTexts did.
type IssueFetch struct {
	Fetched, Cached, Missing int
}

// FetchIssueTexts gives each PR that links an issue of its own repository
// the first such issue's title and body (PR.IssueText), as `mine github`
// does, for PRs mined from local history. Answers are cached at cachePath
// after every request; a 404 is remembered as missing.
func (m *Miner) FetchIssueTexts(ctx context.Context, owner, name string, prs []*source.PR, cachePath string) (IssueFetch, error) {
	var res IssueFetch
	cache, err := loadIssueCache(cachePath, owner+"/"+name)
	if err != nil {
		return res, err
	}
	for _, pr := range prs {
		for _, r := range pr.Issues {
			if r.Repo != "" {
				continue
			}
			key := strconv.Itoa(r.Number)
			c, ok := cache.Issues[key]
			if ok {
				res.Cached++
			} else {
				if err := ctx.Err(); err != nil {
					return res, err
				}
				var is *gh.Issue
				resp, err := m.call(ctx, fmt.Sprintf("issue %s/%s#%d", owner, name, r.Number), func() (resp *gh.Response, err error) {
					is, resp, err = m.Client.Issues.Get(ctx, owner, name, r.Number)
					return resp, err
				})
				switch {
				case err != nil && resp != nil && (resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusGone):
					c = CachedIssue{Missing: true}
					res.Missing++
				case err != nil:
					return res, err
				default:
					c = CachedIssue{Title: is.GetTitle(), Body: is.GetBody()}
					res.Fetched++
				}
				cache.Issues[key] = c
				if err := saveIssueCache(cachePath, cache); err != nil {
					return res, err
				}
			}
			if !c.Missing {
				pr.IssueText = strings.TrimSpace(c.Title + "\n\n" + c.Body)
				break
			}
		}
	}
	return res, nil
}

func loadIssueCache(path, repo string) (*IssueCache, error) {
	c := &IssueCache{Repo: repo, Issues: map[string]CachedIssue{}}
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return c, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, c); err != nil {
		return nil, fmt.Errorf("%s: %w (delete it to fetch again)", path, err)
	}
	if c.Issues == nil {
		c.Issues = map[string]CachedIssue{}
	}
	return c, nil
}

func saveIssueCache(path string, c *IssueCache) error {
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.WriteFile(path, data, 0o644)
}
