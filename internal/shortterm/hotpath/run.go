package hotpath

import (
	"bytes"
	"context"
	"os/exec"
	"time"

	"github.com/cerebro-mem/cerebro/internal/hook"
)

// childDeadline bounds memhook run as a child: the longest hook deadline
// the configuration allows (60 s), its input's read timeout, and a margin.
// A hook never waits on a child longer, whatever the child does.
const childDeadline = 60*time.Second + hook.ReadTimeout + 5*time.Second

// runChild runs memhook as a child on the input and waits for it: the
// way on systems that cannot replace a process, and the fallback where
// replacing failed.
func runChild(memhook string, args, env []string, stdin []byte, sys System) error {
	ctx, cancel := context.WithTimeout(context.Background(), childDeadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, memhook, args...)
	cmd.WaitDelay = time.Second // a grandchild holding the pipes open does not hold the hook
	cmd.Env = env
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	} else {
		cmd.Stdin = sys.In
	}
	cmd.Stdout, cmd.Stderr = sys.Out, sys.Err
	return cmd.Run()
}
