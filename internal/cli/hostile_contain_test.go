//go:build linux

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/gitrepo"
)

// The containment groups of the hostile-repository suite (docs/safety.md,
// "Containment"): every write resolves inside its root, whatever link a
// repository plants on the way, and a planted .git is never committed into.

// writers runs every command that writes memory, as a person or a hook
// would, and returns nothing: the tests judge by what is on disk.
func (h *hostile) writers(t *testing.T) {
	t.Helper()
	h.session(t, "s1")
	h.hookEvent(t, "session-start", h.input("s2", "SessionStart", "source", "startup"))
	for _, args := range [][]string{
		{"long", "on", "--project", h.proj},
		{"core", "add", "--project", h.proj, "The parser lives in internal/parse."},
		{"remember", "--project", h.proj, "The parser lives in internal/parse."},
		{"planfact", "set", "--project", h.proj, "status", "on track"},
		{"night", "--project", h.proj},
		{"rollup-days", "--project", h.proj},
		{"index", "--project", h.proj},
		{"rollup"},
		{"flush", "--pending"},
	} {
		h.exec(t, "", args...)
	}
	h.exec(t, "# Page\n\nA page.\n", "wiki", "write", "--project", h.proj, "wiki/Page.md")
}

// refusedByDoctor checks that doctor names the refused path.
func (h *hostile) refusedByDoctor(t *testing.T, want string) {
	t.Helper()
	out, _, _ := h.exec(t, "", "doctor", "--project", h.proj)
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "refused:") && strings.Contains(l, want) {
			return
		}
	}
	t.Errorf("doctor does not name the refused %s:\n%s", want, out)
}

// .claude planted as a link to a folder outside the project (the user's
// $HOME, here "outside"): no memory_long/, records/ or anything else is
// created there, and doctor names the link.
func TestHostileContainClaudeLinkedToHome(t *testing.T) {
	h := newHostile(t)
	os.RemoveAll(filepath.Join(h.proj, ".claude"))
	os.Symlink(h.outside, filepath.Join(h.proj, ".claude"))
	h.writers(t)
	h.untouched(t)
	h.refusedByDoctor(t, filepath.Join(h.proj, ".claude"))
}

// .claude/memory_long (and memory_short) planted as links out: no
// .cerebro/, .cerebro/night or records/ is created outside.
func TestHostileContainMemoryFoldersLinkedOut(t *testing.T) {
	for _, dir := range []string{"memory_long", "memory_short"} {
		t.Run(dir, func(t *testing.T) {
			h := newHostile(t)
			p := filepath.Join(h.proj, ".claude", dir)
			os.RemoveAll(p)
			os.Symlink(h.outside, p)
			h.writers(t)
			h.untouched(t)
			h.refusedByDoctor(t, p)
		})
	}
}

// A subfolder of long-term memory (records/, .cerebro/) linked out, once
// long-term memory is on: writes there are refused, nothing lands outside.
func TestHostileContainMemorySubfolderLinkedOut(t *testing.T) {
	for _, sub := range []string{"records", ".cerebro", "wiki"} {
		t.Run(sub, func(t *testing.T) {
			h := newHostile(t)
			if _, errOut, code := h.exec(t, "", "long", "on", "--project", h.proj); code != 0 {
				t.Fatalf("long on: %s", errOut)
			}
			p := filepath.Join(h.proj, ".claude", "memory_long", sub)
			os.RemoveAll(p)
			os.Symlink(h.outside, p)
			h.writers(t)
			h.untouched(t)
			h.refusedByDoctor(t, p)
		})
	}
}

// The desk and the state dir are roots too: a link planted in either
// carries no write out.
func TestHostileContainDeskAndStateSubfoldersLinkedOut(t *testing.T) {
	h := newHostile(t)
	if _, errOut, code := h.exec(t, "", "org", "init"); code != 0 {
		t.Fatalf("org init: %s", errOut)
	}
	desk := h.env["CEREBRO_HOME"]
	os.RemoveAll(filepath.Join(desk, "raw"))
	os.Symlink(h.outside, filepath.Join(desk, "raw"))
	state := h.env["CEREBRO_STATE_DIR"]
	os.MkdirAll(state, 0o755)
	os.RemoveAll(filepath.Join(state, "sessions"))
	os.Symlink(h.outside, filepath.Join(state, "sessions"))
	src := filepath.Join(filepath.Dir(h.proj), "notes.md")
	os.WriteFile(src, []byte("# Notes\nWe ship on Tuesdays.\n"), 0o644)
	h.exec(t, "", "org", "ingest", src)
	h.writers(t)
	h.untouched(t)
	h.refusedByDoctor(t, filepath.Join(desk, "raw"))
	h.refusedByDoctor(t, filepath.Join(state, "sessions"))
}

// A planted gitfile (memory_long/.git holding `gitdir: <another repo>`),
// a .git linked to another repository, or one sharing another's objects:
// cerebro commits nothing into the other repository, and doctor says why.
func TestHostileContainPlantedGitDir(t *testing.T) {
	for _, kind := range []string{"gitfile", "symlink", "commondir"} {
		t.Run(kind, func(t *testing.T) {
			h := newHostile(t)
			victim := filepath.Join(h.outside, "victim")
			r, err := gitrepo.Init(victim)
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join(victim, "README"), []byte("mine\n"), 0o644)
			if _, err := r.CommitPaths([]string{"README"}, "first", time.Now()); err != nil {
				t.Fatal(err)
			}
			if _, errOut, code := h.exec(t, "", "long", "on", "--project", h.proj); code != 0 {
				t.Fatalf("long on: %s", errOut)
			}
			long := filepath.Join(h.proj, ".claude", "memory_long")
			os.RemoveAll(filepath.Join(long, ".git"))
			switch kind {
			case "gitfile":
				os.WriteFile(filepath.Join(long, ".git"), []byte("gitdir: "+filepath.Join(victim, ".git")+"\n"), 0o644)
			case "symlink":
				os.Symlink(filepath.Join(victim, ".git"), filepath.Join(long, ".git"))
			case "commondir":
				os.MkdirAll(filepath.Join(long, ".git"), 0o755)
				os.WriteFile(filepath.Join(long, ".git", "commondir"), []byte(filepath.Join(victim, ".git")+"\n"), 0o644)
			}
			h.writers(t)
			vr, err := gitrepo.OpenAtForReading(victim)
			if err != nil {
				t.Fatal(err)
			}
			if log, _ := vr.Log("", 0); len(log) != 1 {
				t.Errorf("the victim repository has %d commits, want 1", len(log))
			}
			if st, _ := vr.Dirty(""); len(st) != 0 {
				t.Errorf("files were staged or written in the victim repository: %v", st)
			}
			if got, _ := os.ReadFile(filepath.Join(long, "CORE.md")); !strings.Contains(string(got), "internal/parse") {
				t.Errorf("memory itself was not written (only the commit should be refused):\n%s", got)
			}
			h.refusedByDoctor(t, "is not a repository of its own")
		})
	}
}
