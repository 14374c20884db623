//go:build !unix

package export

// processRuns cannot tell here: keep every temp file.
func processRuns(pid int) bool { return true }
