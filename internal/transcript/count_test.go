package transcript

import "testing"

func TestIsCommit(t *testing.T) {
	for cmd, want := range map[string]bool{
		"git commit -m 'fix'":                true,
		"git add -A && git commit -qm x":     true,
		"git -C /repo commit --amend":        true,
		"git -c user.name=x commit -m y":     true,
		"git status && git log --oneline -3": false,
		"echo 'git commit later'":            true, // a mention is enough: over-saving beats losing
		"go test ./...":                      false,
		"git diff HEAD~1":                    false,
		"git merge feature":                  true,
		"gitcommit":                          false,
	} {
		if got := IsCommit(cmd); got != want {
			t.Errorf("IsCommit(%q) = %v, want %v", cmd, got, want)
		}
	}
}
