// Package tomlerr turns go-toml errors into one message per problem,
// naming file, line and column.
package tomlerr

import (
	"errors"
	"fmt"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// Wrap renders a go-toml error as "file:line:col: message", the form
// editors jump to. Unknown keys are reported one per line.
func Wrap(path string, err error) error {
	var strict *toml.StrictMissingError
	if errors.As(err, &strict) {
		var lines []string
		for _, e := range strict.Errors {
			row, col := e.Position()
			lines = append(lines, fmt.Sprintf("%s:%d:%d: unknown key %q", path, row, col, strings.Join(e.Key(), ".")))
		}
		return errors.New(strings.Join(lines, "\n"))
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, col := de.Position()
		return fmt.Errorf("%s:%d:%d: %s", path, row, col, de.Error())
	}
	return fmt.Errorf("%s: %w", path, err)
}
