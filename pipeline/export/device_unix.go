//go:build unix

package export

import "syscall"

// sameDevice reports whether a and b are on one file system, so a rename
// between them works.
func sameDevice(a, b string) bool {
	var sa, sb syscall.Stat_t
	if syscall.Stat(a, &sa) != nil || syscall.Stat(b, &sb) != nil {
		return false
	}
	return sa.Dev == sb.Dev
}
