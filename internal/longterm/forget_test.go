package longterm

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/forget"
	"github.com/cerebro-mem/cerebro/internal/testfile"
)

// TestRecordForgetCommitsOnlyTheRemoval: a section forgotten from a
// long-term page is named in log.md by its file, committed with log.md
// and a .gitignore that keeps .trash/ out (added once), and the trash
// never reaches the history; without a history there is a note, no commit.
func TestRecordForgetCommitsOnlyTheRemoval(t *testing.T) {
	s := newProject(t)
	page := s.Path("wiki/Access.md")
	testfile.Write(t, page, "# Access\n\n## Server\nhost a\n\n## Password\nMANGOWORD\n")
	h, err := s.History(GitAuto, now)
	if err != nil || !h.Versioned() {
		t.Fatalf("history: %v", err)
	}
	if _, _, err := h.CommitAll("page", now); err != nil {
		t.Fatal(err)
	}
	unrelated := s.Path("wiki/Other.md")
	testfile.Write(t, unrelated, "# Other\n")

	forgets := 0
	forgetOne := func(target string) *forget.Result {
		forgets++
		res, err := forget.Forget(forget.Request{Roots: []forget.Root{s.ForgetRoot()}, Target: target, Base: s.Dir, Now: now.Add(time.Duration(forgets) * time.Minute)})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := forgetOne(page + "#Password")
	hash, note, logErr := s.RecordForget(GitAuto, res, "wiki/Access.md (one section)", now)
	if hash == "" || note != "" || logErr != nil {
		t.Fatalf("record: %q %q %v", hash, note, logErr)
	}
	head, err := h.Repo.FileAt(hash, "wiki/Access.md")
	if err != nil || strings.Contains(string(head), "MANGOWORD") || !strings.Contains(string(head), "## Server") {
		t.Fatalf("the commit's page: %q %v", head, err)
	}
	if tracked, _ := h.Repo.Tracks(forget.TrashDir); tracked {
		t.Error("the trash is in the history")
	}
	if tracked, _ := h.Repo.Tracks("wiki/Other.md"); tracked {
		t.Error("the forget's commit took a file it did not touch")
	}
	log := testfile.Read(t, s.Path(LogFile))
	if !strings.Contains(log, "forget") || !strings.Contains(log, "wiki/Access.md (one section)") || strings.Contains(log, "Password") {
		t.Errorf("log.md:\n%s", log)
	}
	ignore := testfile.Read(t, s.Path(".gitignore"))
	if strings.Count(ignore, forget.TrashDir+"/") != 1 {
		t.Errorf(".gitignore:\n%s", ignore)
	}
	res = forgetOne(page + "#Server")
	if _, _, err := s.RecordForget(GitAuto, res, "wiki/Access.md (one section)", now); err != nil {
		t.Fatal(err)
	}
	if again := testfile.Read(t, s.Path(".gitignore")); again != ignore {
		t.Errorf(".gitignore changed on the second forget:\n%s", again)
	}

	if err := os.RemoveAll(filepath.Join(s.Dir, ".git")); err != nil {
		t.Fatal(err)
	}
	testfile.Write(t, page, "# Access\n\n## Note\nx\n")
	res = forgetOne(page + "#Note")
	if hash, note, _ := s.RecordForget(GitOff, res, "wiki/Access.md (one section)", now); hash != "" || note == "" {
		t.Errorf("long.git = off: commit %q, note %q", hash, note)
	}
}
