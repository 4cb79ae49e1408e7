package gitrepo

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

type clone struct {
	t    *testing.T
	dir  string
	repo *Repo
}

func newClone(t *testing.T) *clone {
	t.Helper()
	dir := t.TempDir()
	r, err := Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	return &clone{t: t, dir: dir, repo: r}
}

func (c *clone) write(rel, text string) {
	c.t.Helper()
	p := filepath.Join(c.dir, filepath.FromSlash(rel))
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		c.t.Fatal(err)
	}
}

func (c *clone) appendTo(rel, text string) {
	c.t.Helper()
	c.write(rel, c.read(rel)+text)
}

func (c *clone) read(rel string) string {
	c.t.Helper()
	b, err := os.ReadFile(filepath.Join(c.dir, filepath.FromSlash(rel)))
	if err != nil {
		c.t.Fatal(err)
	}
	return string(b)
}

func (c *clone) commit(msg string, paths ...string) {
	c.t.Helper()
	if _, err := c.repo.CommitPaths(paths, msg, time.Now()); err != nil {
		c.t.Fatal(err)
	}
}

func (c *clone) sync(url string) *SyncResult {
	c.t.Helper()
	res, err := c.repo.Sync(context.Background(), url, time.Now())
	if err != nil {
		c.t.Fatal(err)
	}
	return res
}

func (c *clone) head() string {
	c.t.Helper()
	log, err := c.repo.Log("", 1)
	if err != nil || len(log) == 0 {
		c.t.Fatalf("log: %v", err)
	}
	return log[0].Hash
}

func bareRemote(t *testing.T) (string, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "memory.git")
	if err := InitBare(dir); err != nil {
		t.Fatal(err)
	}
	return dir, "file://" + dir
}

// TestSyncTwoClones: two people's clones of one vault meet through a bare
// file:// remote: push, a rejected push that fetches and merges appended
// logs and new pages, a fast-forward, and convergence.
func TestSyncTwoClones(t *testing.T) {
	t.Parallel()
	bare, url := bareRemote(t)
	a, b := newClone(t), newClone(t)
	a.write("log.md", "# Log\n\n- 10:00 · init\n")
	a.write("index.md", "# Index\n\n## Cases\n\n- [[cases/First]]\n\n## Tools\n\n")
	a.write("cases/First.md", "first\n")
	a.commit("init", "log.md", "index.md", "cases/First.md")
	if res := a.sync(url); res.State != SyncPushed || res.Branch != "main" {
		t.Fatalf("first push: %+v", res)
	}
	if res := a.sync(url); res.State != SyncUpToDate {
		t.Fatalf("second sync: %+v", res)
	}
	// B starts empty: the sync is its clone.
	if res := b.sync(url); res.State != SyncFastForward || b.read("cases/First.md") != "first\n" || b.head() != a.head() {
		t.Fatalf("clone: %+v", res)
	}
	// Both add a page, a log line and an index line, each their own.
	a.write("cases/Alpha.md", "alpha\n")
	a.appendTo("log.md", "- 11:00 · ingest Alpha\n")
	a.write("index.md", strings.Replace(a.read("index.md"), "- [[cases/First]]\n", "- [[cases/First]]\n- [[cases/Alpha]]\n", 1))
	a.commit("alpha", "cases/Alpha.md", "log.md", "index.md")
	b.write("tools/Beta.md", "beta\n")
	b.appendTo("log.md", "- 11:05 · ingest Beta\n")
	b.write("index.md", b.read("index.md")+"- [[tools/Beta]]\n")
	b.commit("beta", "tools/Beta.md", "log.md", "index.md")
	if res := a.sync(url); res.State != SyncPushed {
		t.Fatalf("A's push: %+v", res)
	}
	res := b.sync(url)
	if res.State != SyncMerged || len(res.Changed) == 0 {
		t.Fatalf("B's sync: %+v", res)
	}
	// Lines both added at the end: the merging side's first.
	wantLog := "# Log\n\n- 10:00 · init\n- 11:05 · ingest Beta\n- 11:00 · ingest Alpha\n"
	if got := b.read("log.md"); got != wantLog {
		t.Fatalf("merged log:\n%s", got)
	}
	if got := b.read("index.md"); !strings.Contains(got, "- [[cases/Alpha]]") || !strings.Contains(got, "- [[tools/Beta]]") {
		t.Fatalf("merged index:\n%s", got)
	}
	if d, _ := b.repo.Dirty(""); len(d) != 0 {
		t.Fatalf("the merge left the work tree dirty: %v", d)
	}
	if res := a.sync(url); res.State != SyncFastForward {
		t.Fatalf("A takes the merge: %+v", res)
	}
	for _, f := range []string{"log.md", "index.md", "cases/Alpha.md", "tools/Beta.md"} {
		if a.read(f) != b.read(f) {
			t.Fatalf("%s differs after both synced", f)
		}
	}
	if a.head() != b.head() {
		t.Fatal("the clones did not converge on one commit")
	}
	// The bare remote holds the merge.
	rr, err := OpenAtForReading(bare) // a bare repository: no work tree of its own
	if err != nil {
		t.Fatal(err)
	}
	if h, err := rr.repo.ResolveRevision("refs/heads/main"); err != nil || h.String() != a.head() {
		t.Fatalf("remote main %v %v", h, err)
	}
}

// TestSyncDivergedLeavesBothSides: a line both sides rewrote does not
// merge: neither the local branch, the work tree nor the remote changes.
func TestSyncDivergedLeavesBothSides(t *testing.T) {
	t.Parallel()
	_, url := bareRemote(t)
	a, b := newClone(t), newClone(t)
	a.write("cases/X.md", "status: draft\n")
	a.commit("x", "cases/X.md")
	a.sync(url)
	b.sync(url)
	a.write("cases/X.md", "status: active\n")
	a.commit("a", "cases/X.md")
	b.write("cases/X.md", "status: deprecated\n")
	b.commit("b", "cases/X.md")
	a.sync(url)
	remoteBefore := a.head()
	localBefore := b.head()
	res := b.sync(url)
	if res.State != SyncDiverged || len(res.Conflicts) != 1 || res.Conflicts[0] != "cases/X.md" {
		t.Fatalf("%+v", res)
	}
	if b.head() != localBefore || b.read("cases/X.md") != "status: deprecated\n" {
		t.Fatal("a diverged sync changed the local side")
	}
	if res := a.sync(url); res.State != SyncUpToDate || a.head() != remoteBefore {
		t.Fatalf("a diverged sync changed the remote: %+v", res)
	}
}

// TestSyncBlockedByLocalEdits: an uncommitted edit where the remote's
// change goes stops the sync before anything is written.
func TestSyncBlockedByLocalEdits(t *testing.T) {
	t.Parallel()
	_, url := bareRemote(t)
	a, b := newClone(t), newClone(t)
	a.write("log.md", "- one\n")
	a.commit("one", "log.md")
	a.sync(url)
	b.sync(url)
	a.appendTo("log.md", "- two\n")
	a.commit("two", "log.md")
	a.sync(url)
	b.write("log.md", "- one\n- mine, not committed\n")
	before := b.head()
	res := b.sync(url)
	if res.State != SyncBlocked || len(res.Blocked) != 1 || res.Blocked[0] != "log.md" {
		t.Fatalf("%+v", res)
	}
	if b.head() != before || b.read("log.md") != "- one\n- mine, not committed\n" {
		t.Fatal("a blocked sync wrote")
	}
}

func TestCheckURL(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{"file:///srv/m.git", "/srv/m.git", "ssh://git@host/team/m.git", "git@host:team/m.git", "https://host/team/m.git"} {
		if err := CheckURL(ok); err != nil {
			t.Errorf("%s refused: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "https://me:hunter2@host/m.git", "ftp://host/m.git", "relative/path"} {
		err := CheckURL(bad)
		if err == nil {
			t.Errorf("%q accepted", bad)
		} else if strings.Contains(err.Error(), "hunter2") {
			t.Errorf("the error shows the password: %v", err)
		}
	}
}

func TestMergeAdditions(t *testing.T) {
	t.Parallel()
	cases := []struct {
		base, ours, theirs, want string
		ok                       bool
	}{
		{"a\nb\n", "a\nb\nc\n", "a\nb\nd\n", "a\nb\nc\nd\n", true},
		{"a\nb\n", "a\nx\nb\n", "a\nb\ny\n", "a\nx\nb\ny\n", true},
		{"a\nb\n", "a\nb\nc\n", "a\nb\nc\n", "a\nb\nc\n", true},
		// A crashed sync left ours holding theirs' line too: written once.
		{"a\n", "a\nmine\ntheirs\n", "a\ntheirs\n", "a\nmine\ntheirs\n", true},
		{"a\nb\n", "a\nB\n", "a\nb\nc\n", "", false},
		{"a\nb\n", "a\n", "a\nb\nc\n", "", false},
	}
	for _, c := range cases {
		got, ok := MergeAdditions(c.base, c.ours, c.theirs)
		if ok != c.ok || got != c.want {
			t.Errorf("MergeAdditions(%q, %q, %q) = %q, %v; want %q, %v", c.base, c.ours, c.theirs, got, ok, c.want, c.ok)
		}
	}
}

// TestSyncRefusesIgnoredPaths: a remote holding a file this repository
// ignores (a desk's private folder) is not taken.
func TestSyncRefusesIgnoredPaths(t *testing.T) {
	t.Parallel()
	_, url := bareRemote(t)
	a, b := newClone(t), newClone(t)
	a.write(".gitignore", "")
	a.write("log.md", "- one\n")
	a.commit("one", ".gitignore", "log.md")
	a.sync(url)
	b.sync(url)
	b.write(".gitignore", ".claude/\n")
	b.commit("ignore", ".gitignore")
	b.sync(url)
	a.sync(url)
	// A's history plants a file in B's ignored folder.
	a.write(".claude/memory_short/registry.json", `{"projects":[{"path":"/evil"}]}`)
	a.commit("plant", ".claude/memory_short/registry.json")
	a.sync(url)
	res := b.sync(url)
	if res.State != SyncDiverged || len(res.Conflicts) != 1 || !strings.Contains(res.Conflicts[0], "ignored here") {
		t.Fatalf("%+v", res)
	}
	if _, err := os.Stat(filepath.Join(b.dir, ".claude")); err == nil {
		t.Fatal("the planted file was written")
	}
}
