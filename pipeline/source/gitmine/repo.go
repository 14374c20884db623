package gitmine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"time"

	gitcmd "curate/internal/git"
)

// git runs git in dir and returns stdout as text.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	out, err := gitcmd.Output(ctx, dir, args...)
	return string(out), err
}

// ErrNotRepo, ErrEmpty and ErrShallow are the repository states mining
// refuses, each with a message that says what to do.
var (
	ErrNotRepo = errors.New("not a git repository")
	ErrEmpty   = errors.New("empty repository (no commits)")
	ErrShallow = errors.New("shallow clone: history is cut off, so PR base commits are missing; run `git fetch --unshallow` first")
)

// CheckRepo verifies path is a usable, complete git repository and that
// rev (default HEAD) exists. It returns the resolved commit of rev.
func CheckRepo(ctx context.Context, path, rev string) (string, error) {
	st, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("%s does not exist", path)
	}
	if err != nil {
		return "", err
	}
	if !st.IsDir() {
		return "", fmt.Errorf("%s: %w (it is a file)", path, ErrNotRepo)
	}
	if _, err := git(ctx, path, "rev-parse", "--git-dir"); err != nil {
		return "", fmt.Errorf("%s: %w", path, ErrNotRepo)
	}
	if _, err := git(ctx, path, "rev-parse", "--verify", "-q", "HEAD^{commit}"); err != nil {
		if out, _ := git(ctx, path, "for-each-ref", "--count=1", "refs/heads"); strings.TrimSpace(out) == "" {
			return "", fmt.Errorf("%s: %w", path, ErrEmpty)
		}
	}
	if out, err := git(ctx, path, "rev-parse", "--is-shallow-repository"); err == nil && strings.TrimSpace(out) == "true" {
		return "", fmt.Errorf("%s: %w", path, ErrShallow)
	}
	if rev == "" {
		rev = "HEAD"
	}
	if strings.HasPrefix(rev, "-") {
		return "", fmt.Errorf("%s: bad branch %q", path, rev)
	}
	out, err := git(ctx, path, "rev-parse", "--verify", "-q", rev+"^{commit}")
	if err != nil {
		return "", fmt.Errorf("%s: no branch or commit %q", path, rev)
	}
	return strings.TrimSpace(out), nil
}

var remoteRe = regexp.MustCompile(`^(?:[a-z+]+://(?:[^@/]+@)?[^/]+/|[^@/:]+@[^:]+:)([A-Za-z0-9][A-Za-z0-9._-]*)/([A-Za-z0-9][A-Za-z0-9._-]*?)(?:\.git)?/?$`)

// RepoFromRemote turns a remote URL (https, ssh, scp-like) into
// "owner/name", or "" when it is not one.
func RepoFromRemote(url string) string {
	m := remoteRe.FindStringSubmatch(strings.TrimSpace(url))
	if m == nil {
		return ""
	}
	return m[1] + "/" + m[2]
}

// OriginRepo reads owner/name from the origin remote.
func OriginRepo(ctx context.Context, path string) (string, error) {
	out, err := git(ctx, path, "config", "--get", "remote.origin.url")
	if err != nil || strings.TrimSpace(out) == "" {
		return "", fmt.Errorf("%s has no origin remote: pass --repo OWNER/NAME", path)
	}
	repo := RepoFromRemote(out)
	if repo == "" {
		return "", fmt.Errorf("cannot tell owner/name from origin %q: pass --repo OWNER/NAME", strings.TrimSpace(out))
	}
	return repo, nil
}

// CheckRange refuses a --since or --until after today (now, plus a day
// for time zones) and a --since after --until: both would mine nothing,
// silently.
func CheckRange(since, until, now time.Time) error {
	limit := now.Add(24 * time.Hour)
	switch {
	case since.After(limit):
		return fmt.Errorf("--since %s is after today: no PR can have merged yet", since.Format("2006-01-02"))
	case until.After(limit):
		return fmt.Errorf("--until %s is after today; leave it out to mine up to now", until.Format("2006-01-02"))
	case !since.IsZero() && !until.IsZero() && since.After(until):
		return fmt.Errorf("--since %s is after --until %s: the range is empty", since.Format("2006-01-02"), until.Format("2006-01-02"))
	}
	return nil
}

// ParseDate reads a --since/--until value: YYYY-MM-DD or RFC 3339.
func ParseDate(flag, s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	for _, layout := range []string{"2006-01-02", time.RFC3339} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("invalid %s %q: want a date like 2024-05-31 or 2024-05-31T12:00:00Z", flag, s)
}
