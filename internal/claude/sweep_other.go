//go:build !linux

package claude

// Elsewhere the deadline ends the call's process group (Unix) or the child
// (Windows); a descendant that starts a new session escapes, as
// docs/safety.md says.
type sweep struct{}

func startSweep(string) *sweep { return &sweep{} }
func (*sweep) started(int)     {}
func (*sweep) finish(int)      {}
