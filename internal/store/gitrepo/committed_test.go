package gitrepo

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/go-git/go-billy/v5/osfs"
	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage"
)

// longHistory is how many commits [checkoutWithHistory] writes: a plugin
// checkout held 873 when its log walk cost a first memory call 20 s.
const longHistory = 3000

// checkoutWithHistory makes at dir a repository whose skills/use-memory/
// SKILL.md changes in each of n commits ("version i"), written with
// go-git's plumbing (one blob, three trees and a commit each) so thousands
// take seconds; the work tree holds the last version.
func checkoutWithHistory(tb testing.TB, dir string, n int) string {
	tb.Helper()
	r, err := git.PlainInit(dir, false)
	if err != nil {
		tb.Fatal(err)
	}
	st := r.Storer
	put := func(o interface {
		Encode(plumbing.EncodedObject) error
	}) plumbing.Hash {
		obj := st.NewEncodedObject()
		if err := o.Encode(obj); err != nil {
			tb.Fatal(err)
		}
		h, err := st.SetEncodedObject(obj)
		if err != nil {
			tb.Fatal(err)
		}
		return h
	}
	tree := func(name string, mode filemode.FileMode, h plumbing.Hash) plumbing.Hash {
		return put(&object.Tree{Entries: []object.TreeEntry{{Name: name, Mode: mode, Hash: h}}})
	}
	var parent []plumbing.Hash
	when := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	var text string
	for i := 0; i < n; i++ {
		text = fmt.Sprintf("version %d\n", i)
		blob := st.NewEncodedObject()
		blob.SetType(plumbing.BlobObject)
		w, _ := blob.Writer()
		w.Write([]byte(text))
		w.Close()
		bh, err := st.SetEncodedObject(blob)
		if err != nil {
			tb.Fatal(err)
		}
		root := tree("skills", filemode.Dir, tree("use-memory", filemode.Dir, tree("SKILL.md", filemode.Regular, bh)))
		sig := object.Signature{Name: "dev", Email: "dev@example.com", When: when.Add(time.Duration(i) * time.Minute)}
		c := put(&object.Commit{Author: sig, Committer: sig, TreeHash: root, ParentHashes: parent, Message: fmt.Sprintf("commit %d", i)})
		parent = []plumbing.Hash{c}
	}
	if err := st.SetReference(plumbing.NewHashReference(plumbing.NewBranchReferenceName("master"), parent[0])); err != nil {
		tb.Fatal(err)
	}
	file := filepath.Join(dir, "skills", "use-memory", "SKILL.md")
	os.MkdirAll(filepath.Dir(file), 0o755)
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		tb.Fatal(err)
	}
	return file
}

// countingStorer counts the distinct commits read out of a repository's
// storage.
type countingStorer struct {
	storage.Storer
	commits map[plumbing.Hash]bool
}

func (c *countingStorer) EncodedObject(t plumbing.ObjectType, h plumbing.Hash) (plumbing.EncodedObject, error) {
	o, err := c.Storer.EncodedObject(t, h)
	if err == nil && o.Type() == plumbing.CommitObject {
		c.commits[h] = true
	}
	return o, err
}

// TestCommittedFileReadsNoHistory: in a checkout of thousands of commits
// the committed version of a skill is HEAD's, read through one commit; the
// log walk it replaced reads them all (so the count can tell them apart),
// and an uncommitted edit on disk is not taken.
func TestCommittedFileReadsNoHistory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := checkoutWithHistory(t, dir, longHistory)
	want := fmt.Sprintf("version %d\n", longHistory-1)
	os.WriteFile(file, []byte("edited by the tool, not committed\n"), 0o644)

	got, err := CommittedFile(file)
	if err != nil || string(got) != want {
		t.Fatalf("CommittedFile = %q, %v; want HEAD's %q", got, err, want)
	}

	opened, err := git.PlainOpen(dir)
	if err != nil {
		t.Fatal(err)
	}
	count := &countingStorer{Storer: opened.Storer, commits: map[plumbing.Hash]bool{}}
	counted, err := git.Open(count, osfs.New(dir))
	if err != nil {
		t.Fatal(err)
	}
	r := &Repo{repo: counted, root: dir}
	if got, err := r.committed(file); err != nil || string(got) != want {
		t.Fatalf("committed = %q, %v", got, err)
	}
	if len(count.commits) != 1 {
		t.Errorf("the committed version read %d commits of %d; want HEAD's alone", len(count.commits), longHistory)
	}
	clear(count.commits)
	if _, err := r.Log("skills/use-memory", 0); err != nil {
		t.Fatal(err)
	}
	if len(count.commits) != longHistory {
		t.Errorf("the counter saw %d commits of a full log walk; want all %d", len(count.commits), longHistory)
	}
}

// BenchmarkCommittedFile is the version reference's cost in a checkout of
// thousands of commits (go test -bench CommittedFile ./internal/store/gitrepo/).
func BenchmarkCommittedFile(b *testing.B) {
	file := checkoutWithHistory(b, b.TempDir(), longHistory)
	b.ResetTimer()
	for b.Loop() {
		if _, err := CommittedFile(file); err != nil {
			b.Fatal(err)
		}
	}
}
