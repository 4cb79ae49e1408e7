//go:build !windows

package spawn

import (
	"os/exec"
	"syscall"
)

// Detach sets cmd to start in a session of its own.
func Detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}
