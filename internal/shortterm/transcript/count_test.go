package transcript

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestIsCommit(t *testing.T) {
	t.Parallel()
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

// TestUserWordsInToolResults: an answer to AskUserQuestion, the reason
// given for refusing a call and a plan approval are the user's words and
// come back as user items of their kind; plain tool output does not; a
// subagent's call is read only by the sidechain parser.
func TestUserWordsInToolResults(t *testing.T) {
	t.Parallel()
	items, _, err := (Reader{}).Read(filepath.Join("testdata", "userwords.jsonl"), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range items {
		if it.Role == RoleUser {
			got = append(got, it.Kind+":"+it.Text)
		}
	}
	want := []string{":Set up the linters", `answer:"Which tools?"="Credo only"`, "declined:Keep the file name as it is", "plan-approved:plan approved"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("user items\n got %q\nwant %q", got, want)
	}
	for _, it := range items {
		for _, tool := range it.Tools {
			if tool.Name == "Write" {
				t.Error("a sidechain call was read as main dialogue")
			}
			if tool.Name == "ExitPlanMode" && !strings.HasPrefix(tool.Target, "## Plan: keep the name") {
				t.Errorf("plan target %q", tool.Target)
			}
		}
	}
	// The last line is a subagent's: read as one, its call is there.
	log, _, err := (Reader{}).ReadSidechainLog(filepath.Join("testdata", "userwords.jsonl"), 0, 0)
	if err != nil || len(log.Items) == 0 {
		t.Fatalf("sidechain read: %v", err)
	}
	if it := log.Items[len(log.Items)-1]; len(it.Tools) != 1 || it.Tools[0].Target != "/p/sub.go" {
		t.Errorf("sidechain line: %+v", it)
	}
}
