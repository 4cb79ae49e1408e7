package gitrepo

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/utils/diff"
	"github.com/sergi/go-diff/diffmatchpatch"
)

// A three-way merge of two histories that touched memory on both sides.
// It is deliberately narrow: it merges only what merges without a
// judgement call, and leaves everything else to a person.
//
//   - a file changed on one side only takes that side;
//   - a file both sides changed the same way is kept;
//   - a text file both sides changed is merged only when each side only
//     added lines to it (log.md, a card's facts, index.md's catalogue): the
//     added lines go in at their places, ours before theirs where both
//     added at the same place, a block both added once;
//   - anything else — a line removed or rewritten on both sides, a file
//     deleted on one side and changed on the other, the same new page
//     written differently, binary content — is a conflict, and nothing is
//     merged at all.

// entry is one file of a tree.
type entry struct {
	hash plumbing.Hash
	mode filemode.FileMode
}

// treeFiles flattens a tree into its entries by slash path: files,
// links and submodules, never a blob read (go-git's Files() reads each).
func treeFiles(t *object.Tree) (map[string]entry, error) {
	out := map[string]entry{}
	if t == nil {
		return out, nil
	}
	w := object.NewTreeWalker(t, true, nil)
	defer w.Close()
	for {
		name, e, err := w.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if e.Mode != filemode.Dir {
			out[name] = entry{hash: e.Hash, mode: e.Mode}
		}
	}
}

// maxMergeBytes bounds a file the line merge reads: memory's text files are
// far smaller, and a giant blob must not take the process's memory.
const maxMergeBytes = 16 << 20

func (r *Repo) blob(h plumbing.Hash) ([]byte, error) {
	b, err := r.repo.BlobObject(h)
	if err != nil {
		return nil, err
	}
	if b.Size > maxMergeBytes {
		return nil, fmt.Errorf("blob %s is over %d bytes", h, maxMergeBytes)
	}
	rd, err := b.Reader()
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	return io.ReadAll(io.LimitReader(rd, maxMergeBytes))
}

func (r *Repo) storeBlob(data []byte) (plumbing.Hash, error) {
	obj := r.repo.Storer.NewEncodedObject()
	obj.SetType(plumbing.BlobObject)
	w, err := obj.Writer()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if _, err := w.Write(data); err != nil {
		w.Close()
		return plumbing.ZeroHash, err
	}
	if err := w.Close(); err != nil {
		return plumbing.ZeroHash, err
	}
	return r.repo.Storer.SetEncodedObject(obj)
}

// mergeFiles merges theirs into ours over base. It returns the merged
// files, or the paths that conflict (and then no merge). A path kind does
// not hold never conflicts: ours stands when we changed it, else theirs is
// carried in the history as it is (a sync never writes it, see moveTo).
func (r *Repo) mergeFiles(kind Kind, base, ours, theirs map[string]entry) (map[string]entry, []string, error) {
	paths := map[string]bool{}
	for _, m := range []map[string]entry{base, ours, theirs} {
		for p := range m {
			paths[p] = true
		}
	}
	out := map[string]entry{}
	var conflicts []string
	for p := range paths {
		b, inB := base[p]
		o, inO := ours[p]
		t, inT := theirs[p]
		if kept(p) || kind.refuses(p) != "" {
			switch {
			case !(inB == inO && b == o):
				if inO {
					out[p] = o
				}
			case inT:
				out[p] = t
			}
			continue
		}
		switch {
		case inO == inT && o == t:
			if inO {
				out[p] = o
			}
		case inB == inO && b == o:
			if inT {
				out[p] = t
			}
		case inB == inT && b == t:
			if inO {
				out[p] = o
			}
		case inB && inO && inT && o.mode.IsFile() && t.mode.IsFile():
			merged, ok, err := r.mergeText(b.hash, o.hash, t.hash)
			if err != nil {
				return nil, nil, fmt.Errorf("merge %s: %w", p, err)
			}
			if !ok {
				conflicts = append(conflicts, p)
				continue
			}
			h, err := r.storeBlob(merged)
			if err != nil {
				return nil, nil, fmt.Errorf("merge %s: %w", p, err)
			}
			out[p] = entry{hash: h, mode: o.mode}
		default:
			conflicts = append(conflicts, p)
		}
	}
	sort.Strings(conflicts)
	if len(conflicts) > 0 {
		return nil, conflicts, nil
	}
	return out, nil, nil
}

func (r *Repo) mergeText(b, o, t plumbing.Hash) ([]byte, bool, error) {
	var texts [3][]byte
	for i, h := range []plumbing.Hash{b, o, t} {
		data, err := r.blob(h)
		if err != nil {
			return nil, false, err
		}
		if bytes.IndexByte(data, 0) >= 0 {
			return nil, false, nil // binary: never merged
		}
		texts[i] = data
	}
	merged, ok := MergeAdditions(string(texts[0]), string(texts[1]), string(texts[2]))
	return []byte(merged), ok, nil
}

// insertion is a block of lines a side added before base line at.
type insertion struct {
	at    int
	lines []string
}

// additions returns what side added to base, or ok=false when it removed
// or changed a line of base.
func additions(base, side string) ([]insertion, bool) {
	var out []insertion
	at := 0
	for _, d := range diff.Do(base, side) {
		n := strings.Count(d.Text, "\n")
		switch d.Type {
		case diffmatchpatch.DiffEqual:
			at += n
		case diffmatchpatch.DiffDelete:
			return nil, false
		case diffmatchpatch.DiffInsert:
			out = append(out, insertion{at: at, lines: splitKeep(d.Text)})
		}
	}
	return out, true
}

func splitKeep(s string) []string {
	lines := strings.SplitAfter(s, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

func withNewline(s string) string {
	if s != "" && !strings.HasSuffix(s, "\n") {
		return s + "\n"
	}
	return s
}

// MergeAdditions merges two versions of a text that each only added lines
// to base: every added block goes in at its place, ours before theirs at
// the same place; a block one side holds whole inside the other's block at
// the same place is written once. ok is false when either side removed or
// rewrote a line of base.
func MergeAdditions(base, ours, theirs string) (string, bool) {
	base, ours, theirs = withNewline(base), withNewline(ours), withNewline(theirs)
	oi, ok1 := additions(base, ours)
	ti, ok2 := additions(base, theirs)
	if !ok1 || !ok2 {
		return "", false
	}
	at := map[int][]string{}
	for _, in := range oi {
		at[in.at] = append(at[in.at], in.lines...)
	}
	for _, in := range ti {
		have := at[in.at]
		switch {
		case containsBlock(have, in.lines):
		case containsBlock(in.lines, have):
			at[in.at] = in.lines
		default:
			at[in.at] = append(have, in.lines...)
		}
	}
	var b strings.Builder
	lines := splitKeep(base)
	for i := 0; i <= len(lines); i++ {
		for _, l := range at[i] {
			b.WriteString(l)
		}
		if i < len(lines) {
			b.WriteString(lines[i])
		}
	}
	return b.String(), true
}

// containsBlock reports whether block appears, line for line, in lines.
func containsBlock(lines, block []string) bool {
	if len(block) == 0 {
		return true
	}
	for i := 0; i+len(block) <= len(lines); i++ {
		match := true
		for j := range block {
			if lines[i+j] != block[j] {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}

// buildTree stores the tree of files and returns its hash. Entries are
// sorted the way git sorts them: a folder's name compares as if it ended
// in "/".
func (r *Repo) buildTree(files map[string]entry) (plumbing.Hash, error) {
	type node struct {
		files map[string]entry
		dirs  map[string]*node
	}
	newNode := func() *node { return &node{files: map[string]entry{}, dirs: map[string]*node{}} }
	root := newNode()
	for p, e := range files {
		dir, name := path.Split(p)
		n := root
		if dir != "" {
			for _, part := range strings.Split(strings.TrimSuffix(dir, "/"), "/") {
				if n.dirs[part] == nil {
					n.dirs[part] = newNode()
				}
				n = n.dirs[part]
			}
		}
		n.files[name] = e
	}
	var store func(n *node) (plumbing.Hash, error)
	store = func(n *node) (plumbing.Hash, error) {
		var entries []object.TreeEntry
		for name, e := range n.files {
			entries = append(entries, object.TreeEntry{Name: name, Mode: e.mode, Hash: e.hash})
		}
		for name, d := range n.dirs {
			h, err := store(d)
			if err != nil {
				return plumbing.ZeroHash, err
			}
			entries = append(entries, object.TreeEntry{Name: name, Mode: filemode.Dir, Hash: h})
		}
		key := func(e object.TreeEntry) string {
			if e.Mode == filemode.Dir {
				return e.Name + "/"
			}
			return e.Name
		}
		sort.Slice(entries, func(i, j int) bool { return key(entries[i]) < key(entries[j]) })
		t := &object.Tree{Entries: entries}
		obj := r.repo.Storer.NewEncodedObject()
		if err := t.Encode(obj); err != nil {
			return plumbing.ZeroHash, err
		}
		return r.repo.Storer.SetEncodedObject(obj)
	}
	return store(root)
}
