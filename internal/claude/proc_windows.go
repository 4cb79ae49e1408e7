//go:build windows

package claude

import (
	"os/exec"
	"syscall"
)

// startOwnGroup starts the child in a new process group, so console
// signals meant for cerebro do not reach it.
func startOwnGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

// killGroup ends the child. Windows has no process-group kill without a
// job object; the child's own children may outlive it, and WaitDelay stops
// Run from waiting on their pipes.
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return cmd.Process.Kill()
}
