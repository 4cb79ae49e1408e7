package longterm

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// ProjectPlaceholder in long.remote is replaced by the project's folder
// name: one user setting names a remote per project.
const ProjectPlaceholder = "{project}"

// ErrRemoteNoProject means long.remote does not name the project.
var ErrRemoteNoProject = errors.New("does not name the project: every project's memory needs a remote of its own")

// RemoteFor expands long.remote for the project at root.
func RemoteFor(remote, root string) (string, error) {
	if !strings.Contains(remote, ProjectPlaceholder) {
		return "", fmt.Errorf("long.remote %q %w", remote, ErrRemoteNoProject)
	}
	return strings.ReplaceAll(remote, ProjectPlaceholder, remoteName(filepath.Base(root))), nil
}

// remoteName keeps a folder name to what a URL path holds safely.
func remoteName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	out := strings.Trim(b.String(), "-.")
	if out == "" {
		return "project"
	}
	return out
}
