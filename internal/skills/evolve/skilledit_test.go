package evolve

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/testfile"
)

// TestCommitEditCommitsASkillAndTakesTheReference: an edit of the memory
// instruction is committed in its skills folder's repository and, the
// first time, leaves the person's reference; a file that is no skill's is
// left alone.
func TestCommitEditCommitsASkillAndTakesTheReference(t *testing.T) {
	dir := t.TempDir()
	ref := Reference{Dir: filepath.Join(dir, "ref")}
	f := filepath.Join(dir, "proj", ".claude", "skills", InstructionSkill, "SKILL.md")
	testfile.Write(t, f, "---\nname: use-memory\n---\nRecall first.\n")
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	noPlugin := func() string { return "" }
	sk, res, ok, err := ref.CommitEdit(f, "Edit", noPlugin, now)
	if err != nil || !ok || sk.Name != InstructionSkill || res.Commit == "" || !res.Initialized {
		t.Fatalf("commit: %+v %+v %v %v", sk, res, ok, err)
	}
	if m, _, err := ref.Load(); err != nil || len(m.Files) == 0 {
		t.Fatalf("no reference taken: %+v %v", m, err)
	}
	testfile.Write(t, f, "---\nname: use-memory\n---\nRecall first, always.\n")
	if _, res, _, err := ref.CommitEdit(f, "Edit", noPlugin, now.Add(time.Minute)); err != nil || res.Commit == "" || res.Initialized {
		t.Fatalf("second edit: %+v %v", res, err)
	}
	other := filepath.Join(dir, "proj", "notes.md")
	testfile.Write(t, other, "notes\n")
	if _, _, ok, err := ref.CommitEdit(other, "Write", noPlugin, now); ok || err != nil {
		t.Errorf("a file that is no skill's: ok %v, %v", ok, err)
	}
}
