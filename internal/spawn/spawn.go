// Package spawn starts a process that outlives its caller: the claude
// distiller's flush a hook hands off, a skill's shadow run after a recall,
// `memhook serve --background`. Build the *exec.Cmd as usual (its Dir, Env,
// Stdout), then call [Start] to start it and let it go, or [Detach] before
// cmd.Start when the caller still watches it for a while (serve waits
// until the server answers).
//
// Detached means out of reach of the caller's end: on Unix a new session,
// so Claude Code's cleanup of the hook's process group does not take it;
// on Windows no console and a process group of its own.
package spawn

import "os/exec"

// Start starts cmd detached, releases it (nobody waits for it) and
// returns its pid.
func Start(cmd *exec.Cmd) (int, error) {
	Detach(cmd)
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	pid := cmd.Process.Pid
	cmd.Process.Release()
	return pid, nil
}
