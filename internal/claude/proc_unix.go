//go:build unix

package claude

import (
	"os/exec"
	"syscall"
)

// startOwnGroup puts the child in a process group of its own, so a timeout
// can end it together with everything it started.
func startOwnGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	// The group id is the child's pid; a negative pid signals the group.
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		return cmd.Process.Kill()
	}
	return nil
}
