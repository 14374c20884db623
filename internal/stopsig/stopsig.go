// Package stopsig names the signals that stop curate cleanly: runs are
// stopped and recorded, containers removed. SIGHUP is one of them, so
// closing the terminal (or the tmux pane) behaves like ctrl+c.
package stopsig

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// Signals are the stop signals: interrupt, SIGTERM, SIGHUP.
var Signals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// Context is ctx cancelled on the first stop signal; stop releases it.
func Context(ctx context.Context) (context.Context, context.CancelFunc) {
	return signal.NotifyContext(ctx, Signals...)
}
