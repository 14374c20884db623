package app

import (
	"context"
	"errors"
	"io"
	"sync"
)

// checkConcurrently runs check for each repository, n at once (at least
// one), and returns the states of the checks that ended, in repos' order.
// The first error stops the rest: checks not started are not started,
// and those under way are cancelled (a cancelled check records nothing).
// Why at once: a campaign's checks are most of its wall time before any
// validation starts (a repository image and its suite each), and one at a
// time leaves all but one of the engine's slots idle.
func checkConcurrently(ctx context.Context, repos []string, n int, check func(context.Context, string) (*RepoState, error)) ([]*RepoState, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	states := make([]*RepoState, len(repos))
	errs := make([]error, len(repos))
	slots := make(chan struct{}, max(n, 1))
	var wg sync.WaitGroup
	for i, repo := range repos {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			states[i], errs[i] = check(ctx, repo)
			if errs[i] != nil {
				cancel()
			}
		}()
	}
	wg.Wait()
	var out []*RepoState
	var first error
	for i := range repos {
		if errs[i] != nil && (first == nil || errors.Is(first, context.Canceled)) {
			first = errs[i] // the cause, not the cancels it made
		}
		if errs[i] == nil && states[i] != nil {
			out = append(out, states[i])
		}
	}
	if first == nil {
		first = ctx.Err() // the caller's cancel, before a check started
	}
	return out, first
}

// lockedWriter lets checks under way at once share one log.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
