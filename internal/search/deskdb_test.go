package search

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/store/sqlitedb"
)

// An index written by the schema before (the full-text table holding a
// copy of its columns) is made again when opened, and searches after its
// update.
func TestOldSchemaIndexIsRebuilt(t *testing.T) {
	state, dir := t.TempDir(), t.TempDir()
	write(t, filepath.Join(dir, "deploy.md"), "# Deploy\n\nThe billing service ships on Fridays.\n")
	db, err := sqlitedb.Open(filepath.Join(state, deskFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
		`INSERT INTO meta(key, value) VALUES('schema', '7'), ('chunks', '1'), ('tokens', '3')`,
		`CREATE TABLE roots(id INTEGER PRIMARY KEY, dir TEXT NOT NULL UNIQUE, fingerprint TEXT NOT NULL)`,
		`INSERT INTO roots(id, dir, fingerprint) VALUES(1, '` + filepath.Clean(dir) + `', 'schema=7|old')`,
		`CREATE TABLE files(root INTEGER NOT NULL, path TEXT NOT NULL, mtime INTEGER NOT NULL, size INTEGER NOT NULL,
			hash TEXT NOT NULL, dated INTEGER NOT NULL, PRIMARY KEY(root, path)) WITHOUT ROWID`,
		`CREATE TABLE chunks(id INTEGER PRIMARY KEY, root INTEGER NOT NULL, path TEXT NOT NULL, start_line INTEGER NOT NULL,
			end_line INTEGER NOT NULL, text TEXT NOT NULL, tokens INTEGER NOT NULL, embedding BLOB, links REAL NOT NULL DEFAULT 0)`,
		`CREATE VIRTUAL TABLE chunks_fts USING fts5(stems, title, heads, root, tokenize='unicode61 remove_diacritics 0')`,
		`INSERT INTO chunks(id, root, path, start_line, end_line, text, tokens) VALUES(1, 1, 'gone.md', 1, 1, 'old kafka note', 3)`,
		`INSERT INTO chunks_fts(rowid, stems, title, heads, root) VALUES(1, 'old kafka note', 'gone', '', 'cerebroroot1')`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()

	ix, err := Open(state, Root{Dir: dir, Kind: KindDir}, Params{ChunkTokens: 400, OverlapTokens: 80})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if !ix.Rebuilt {
		t.Fatal("an index of schema 7 was opened as it was")
	}
	var copies int
	if err := ix.db.QueryRow(`SELECT count(*) FROM sqlite_schema WHERE name = 'chunks_fts_content'`).Scan(&copies); err != nil || copies != 0 {
		t.Fatalf("the full-text table still keeps a copy of its columns (%d, %v)", copies, err)
	}
	if _, err := ix.Update(context.Background(), now, nil); err != nil {
		t.Fatal(err)
	}
	r, err := Search(context.Background(), []*Index{ix}, "shipping billing", defaults())
	if err != nil || len(r.Results) != 1 || !strings.HasSuffix(r.Results[0].Path, "deploy.md") {
		t.Fatalf("search after the rebuild: %+v %v", r, err)
	}
	if r, _ := Search(context.Background(), []*Index{ix}, "kafka", defaults()); len(r.Results) != 0 {
		t.Fatalf("the old schema's chunks are still found: %v", paths(r))
	}
}

// A search across projects opens its roots from the roots table read
// once; a root indexed after that read, or indexed again with other
// settings, is still opened as the table says.
func TestOpenIndexedFollowsRootsIndexedAfterTheRead(t *testing.T) {
	state, a, b := t.TempDir(), t.TempDir(), t.TempDir()
	write(t, filepath.Join(a, "a.md"), "kafka lag\n")
	write(t, filepath.Join(b, "b.md"), "kafka offsets\n")
	p := Params{ChunkTokens: 400, OverlapTokens: 80}
	indexed(t, state, Root{Dir: a, Kind: KindDir}, p)
	first, err := OpenIndexed(state, Root{Dir: a, Kind: KindDir}, p)
	if err != nil || first == nil {
		t.Fatalf("the indexed root: %v %v", first, err)
	}
	defer first.Close()
	if ix, err := OpenIndexed(state, Root{Dir: b, Kind: KindDir}, p); ix != nil || err != nil {
		t.Fatalf("a root never indexed opened: %v %v", ix, err)
	}
	indexed(t, state, Root{Dir: b, Kind: KindDir}, p)
	later, err := OpenIndexed(state, Root{Dir: b, Kind: KindDir}, p)
	if err != nil || later == nil {
		t.Fatalf("a root indexed after the roots were read: %v %v", later, err)
	}
	later.Close()
	indexed(t, state, Root{Dir: a, Kind: KindDir}, Params{ChunkTokens: 200, OverlapTokens: 40})
	if ix, err := OpenIndexed(state, Root{Dir: a, Kind: KindDir}, p); ix != nil || err != nil {
		t.Fatalf("a root indexed again with other settings opened with the old ones: %v %v", ix, err)
	}
}

// What `memhook forget` took out of a note leaves the index file: the
// full-text table keeps no copy of its text, and its entries for the
// forgotten words are merged away.
func TestForgottenWordsLeaveTheIndexFile(t *testing.T) {
	state, dir := t.TempDir(), t.TempDir()
	write(t, filepath.Join(dir, "n.md"), "the zanzibarquux password rotation\n\nkeep this line\n")
	write(t, filepath.Join(dir, "other.md"), "another note about rotation\n")
	ix := indexed(t, state, Root{Dir: dir, Kind: KindDir}, Params{})
	write(t, filepath.Join(dir, "n.md"), "keep this line\n")
	if err := ix.Forget(context.Background(), "n.md", now); err != nil {
		t.Fatal(err)
	}
	if _, err := ix.db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(state, deskFile))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, []byte("zanzibarquux")) {
		t.Fatal("the forgotten word is still in the index file")
	}
	if r, _ := Search(context.Background(), []*Index{ix}, "keep line", defaults()); len(r.Results) != 1 {
		t.Fatalf("the note's other words: %v", paths(r))
	}
}
