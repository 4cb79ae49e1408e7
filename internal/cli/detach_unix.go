//go:build !windows

package cli

import (
	"os/exec"
	"syscall"
)

// detach makes cmd outlive the hook: a new session, so Claude Code's
// cleanup of the hook's process group does not reach it.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}
