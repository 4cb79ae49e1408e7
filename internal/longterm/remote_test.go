package longterm

import (
	"errors"
	"testing"
)

func TestRemoteForNamesTheProjectSafely(t *testing.T) {
	for root, want := range map[string]string{
		"/work/my app": "git@h:me/my-app-memory.git",
		"/work/..":     "git@h:me/project-memory.git",
		"/work/Проект": "git@h:me/project-memory.git",
	} {
		if got, err := RemoteFor("git@h:me/{project}-memory.git", root); err != nil || got != want {
			t.Errorf("%s: %q, %v; want %q", root, got, err, want)
		}
	}
	if _, err := RemoteFor("git@h:me/memory.git", "/work/a"); !errors.Is(err, ErrRemoteNoProject) {
		t.Errorf("a remote without {project}: %v", err)
	}
}
