//go:build !linux

package export

import "errors"

func exchange(a, b string) error { return errors.New("atomic exchange not supported") }
