package hotpath

import (
	"bytes"
	"os/exec"
)

// runChild runs memhook as a child on the input and waits for it: the
// way on systems that cannot replace a process, and the fallback where
// replacing failed.
func runChild(memhook string, args, env []string, stdin []byte, sys System) error {
	cmd := exec.Command(memhook, args...)
	cmd.Env = env
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	} else {
		cmd.Stdin = sys.In
	}
	cmd.Stdout, cmd.Stderr = sys.Out, sys.Err
	return cmd.Run()
}
