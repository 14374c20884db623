//go:build linux

package atomicfile

import "golang.org/x/sys/unix"

// exchange atomically swaps two paths, so there is no moment when the
// destination is missing. It fails on file systems that lack the call.
func exchange(a, b string) error {
	return unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
}
