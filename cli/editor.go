package cli

import (
	"fmt"
	"os/exec"
)

// runEditor runs an edit's editor on the terminal curate has; when it
// fails, discard drops the edit's temp file and the error names the editor.
func runEditor(env *Env, c *exec.Cmd, discard func()) error {
	c.Stdin, c.Stdout, c.Stderr = env.In, env.Out, env.Err
	if err := c.Run(); err != nil {
		discard()
		return fmt.Errorf("editor %s: %w", c.Path, err)
	}
	return nil
}
