// Package git is the one way curate runs the git CLI: every call gets the
// same environment (C locale, so messages and dates parse the same
// everywhere; no pager; no credential or terminal prompts, so a missing
// password fails instead of hanging) and errors that carry git's stderr.
package git

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
)

// env is added to the caller's environment on every call.
var env = []string{
	"LC_ALL=C",
	"GIT_PAGER=cat",
	"GIT_TERMINAL_PROMPT=0",
	"GIT_ASKPASS=true",
	"SSH_ASKPASS=true",
	"GCM_INTERACTIVE=never",
	"GIT_SSH_COMMAND=ssh -o BatchMode=yes",
}

// Command is git with args in dir ("" = the current directory), with
// curate's git environment and the guard that keeps the repository's
// config from running anything (guard.go); extra NAME=VALUE pairs are
// appended. Use it to stream (StdoutPipe) or to feed stdin; Output and
// Run cover the rest. When the repository's config cannot be read
// first, the command fails to start with that error.
func Command(ctx context.Context, dir string, extra []string, args ...string) *exec.Cmd {
	environ := append(append(append(os.Environ(), env...), guardEnv...), extra...)
	overrides, protocols, err := repositoryOverrides(ctx, dir, environ, globalOptions(args))
	cmd := exec.CommandContext(ctx, "git", guarded(args)...)
	cmd.Dir = dir
	cmd.Env = append(append(environ, protocolEnv(protocols)...), configEnv(append(append([]setting{}, fixedConfig...), overrides...))...)
	if err != nil {
		cmd.Err = guardError(args, err)
	}
	return cmd
}

// Output runs git in dir and returns its stdout.
func Output(ctx context.Context, dir string, args ...string) ([]byte, error) {
	return OutputWith(ctx, dir, nil, nil, args...)
}

// OutputWith is Output with stdin and extra environment.
func OutputWith(ctx context.Context, dir string, stdin io.Reader, extra []string, args ...string) ([]byte, error) {
	cmd := Command(ctx, dir, extra, args...)
	cmd.Stdin = stdin
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, Error(args, err, stderr.String())
	}
	return out, nil
}

// Run runs git in dir with stdout to w (nil: discarded).
func Run(ctx context.Context, dir string, w io.Writer, args ...string) error {
	cmd := Command(ctx, dir, nil, args...)
	cmd.Stdout = w
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return Error(args, err, stderr.String())
	}
	return nil
}

// Error is the error of a failed git call: "git SUBCOMMAND: stderr" (the
// process error when stderr is empty).
func Error(args []string, err error, stderr string) error {
	msg := strings.TrimSpace(stderr)
	if msg == "" {
		msg = err.Error()
	}
	return fmt.Errorf("git %s: %s", Subcommand(args), msg)
}

// Subcommand is the git command args run (log, cat-file, ...), skipping
// global options such as -C DIR and -c KEY=VALUE.
func Subcommand(args []string) string {
	if i := subcommandIndex(args); i >= 0 {
		return args[i]
	}
	return "git"
}
