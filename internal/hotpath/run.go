package hotpath

import (
	"bytes"
	"fmt"
	"os/exec"
)

// runChild runs memhook as a child on the input and waits for it: the
// way on systems that cannot replace a process, and the fallback where
// replacing failed.
func runChild(memhook string, args, env []string, stdin []byte, sys System) int {
	cmd := exec.Command(memhook, args...)
	cmd.Env = env
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	} else {
		cmd.Stdin = sys.In
	}
	cmd.Stdout, cmd.Stderr = sys.Out, sys.Err
	if err := cmd.Run(); err != nil {
		// A hook fails open: the capture is done, the rest waits for the
		// next event.
		fmt.Fprintf(sys.Err, "memhook-hot: run memhook: %v\n", err)
	}
	return 0
}
