//go:build linux

package gitrepo

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// bareWithBlob makes a bare remote whose one commit holds log.md and
// name, a blob of size zero bytes written by streaming (so the test
// itself never holds it).
func bareWithBlob(t *testing.T, name string, size int64) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "team.git")
	if err := InitBare(dir); err != nil {
		t.Fatal(err)
	}
	r, err := git.PlainOpen(dir)
	if err != nil {
		t.Fatal(err)
	}
	st := r.Storer.(*filesystem.Storage)
	w, header, err := st.LazyWriter()
	if err != nil {
		t.Fatal(err)
	}
	if err := header(plumbing.BlobObject, size); err != nil {
		t.Fatal(err)
	}
	if _, err := io.CopyN(w, zeros{}, size); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	big := w.(interface{ Hash() plumbing.Hash }).Hash()
	small := storeTestBlob(t, st, []byte("- 10:00 · init\n"))
	entries := []object.TreeEntry{
		{Name: name, Mode: filemode.Regular, Hash: big},
		{Name: "log.md", Mode: filemode.Regular, Hash: small},
	}
	if entries[0].Name > entries[1].Name {
		entries[0], entries[1] = entries[1], entries[0]
	}
	tree := &object.Tree{Entries: entries}
	obj := st.NewEncodedObject()
	if err := tree.Encode(obj); err != nil {
		t.Fatal(err)
	}
	th, err := st.SetEncodedObject(obj)
	if err != nil {
		t.Fatal(err)
	}
	sig := object.Signature{Name: "teammate", Email: "t@example.com", When: time.Now()}
	c := &object.Commit{Author: sig, Committer: sig, TreeHash: th, Message: "a big source"}
	obj = st.NewEncodedObject()
	if err := c.Encode(obj); err != nil {
		t.Fatal(err)
	}
	ch, err := st.SetEncodedObject(obj)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.SetReference(plumbing.NewHashReference(plumbing.NewBranchReferenceName("main"), ch)); err != nil {
		t.Fatal(err)
	}
	return dir
}

func storeTestBlob(t *testing.T, st *filesystem.Storage, data []byte) plumbing.Hash {
	t.Helper()
	obj := st.NewEncodedObject()
	obj.SetType(plumbing.BlobObject)
	w, _ := obj.Writer()
	w.Write(data)
	w.Close()
	h, err := st.SetEncodedObject(obj)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// helperEnv names the desk and remote of [TestHelperSyncProcess].
const helperEnv = "CEREBRO_TEST_SYNC_HELPER"

// TestHelperSyncProcess is not a test of its own: it is the process
// syncBigBlob measures, and does nothing unless that names a desk and a
// remote.
func TestHelperSyncProcess(t *testing.T) {
	spec := os.Getenv(helperEnv)
	if spec == "" {
		return
	}
	desk, url, _ := strings.Cut(spec, "\n")
	r, err := Init(desk)
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.Sync(context.Background(), url, testKind, time.Now())
	if err != nil {
		fmt.Printf("error: %v\n", err)
		return
	}
	fmt.Printf("state: %s\nchanged: %s\nrefused: %s\n", res.State, strings.Join(res.Changed, ","), strings.Join(res.Refused, ","))
}

// syncBigBlob syncs a fresh desk with a remote holding a blob of size
// zero bytes, in a child process, and returns what it printed and its
// peak resident memory.
func syncBigBlob(t *testing.T, size int64) (desk, out string, rss int64) {
	t.Helper()
	remote := bareWithBlob(t, "raw.bin", size)
	desk = t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperSyncProcess$")
	cmd.Env = append(os.Environ(), helperEnv+"="+desk+"\nfile://"+remote)
	var b bytes.Buffer
	cmd.Stdout, cmd.Stderr = &b, &b
	if err := cmd.Run(); err != nil {
		t.Fatalf("the sync process: %v\n%s", err, b.String())
	}
	rss = cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10
	t.Logf("the sync of a %d-byte blob peaked at %d MB resident", size, rss>>20)
	return desk, b.String(), rss
}

// TestBigBlobSyncInBoundedMemory: a remote holding a blob just under 1
// GiB (zeros: a few MB compressed) does not reach the memory of the desk
// syncing with it. Its pack is read as it arrives, and the object over
// the desk's file bound (limits.ingest_bytes, 64 MiB by default) stops the
// fetch before go-git's indexer would inflate it whole: the sync fails,
// saying so, in a few MB, and leaves no pack behind. A 5.3 GB peak before.
func TestBigBlobSyncInBoundedMemory(t *testing.T) {
	desk, out, rss := syncBigBlob(t, 1<<30-1)
	if !strings.Contains(out, "error: fetch from") || !strings.Contains(out, "an object of 1073741823 bytes") || !strings.Contains(out, "limits.ingest_bytes") {
		t.Fatalf("the sync did not stop at the big object:\n%s", out)
	}
	if rss > 100<<20 {
		t.Errorf("the sync peaked at %d MB resident for a 1 GiB blob; bound 100 MB", rss>>20)
	}
	packs, _ := filepath.Glob(filepath.Join(desk, ".git", "objects", "pack", "*"))
	if _, err := os.Stat(filepath.Join(desk, "raw.bin")); err == nil || len(packs) > 0 {
		t.Errorf("the stopped sync left the blob or a pack behind: %v", packs)
	}
}

// TestLargeBlobWithinTheBoundIsStreamed: a 60 MiB blob, under the bound,
// is fetched and written to the work tree at no more than about twice its
// size (go-git's indexer inflates it once; the file is written from a
// stream), and the tree reads as clean after.
func TestLargeBlobWithinTheBoundIsStreamed(t *testing.T) {
	const size = 60 << 20
	desk, out, rss := syncBigBlob(t, size)
	if !strings.Contains(out, "state: fast-forward") || !strings.Contains(out, "raw.bin") {
		t.Fatalf("the blob was not taken:\n%s", out)
	}
	if rss > 2*size+40<<20 {
		t.Errorf("the sync peaked at %d MB resident for a 60 MiB blob; want about twice its size at most", rss>>20)
	}
	fi, err := os.Stat(filepath.Join(desk, "raw.bin"))
	if err != nil || fi.Size() != size {
		t.Fatalf("raw.bin on disk: %v %v", fi, err)
	}
	r, err := OpenAt(desk)
	if err != nil {
		t.Fatal(err)
	}
	if d, err := r.Dirty(""); err != nil || len(d) > 0 {
		t.Errorf("the work tree is not clean after the sync: %v %v", d, err)
	}
}
