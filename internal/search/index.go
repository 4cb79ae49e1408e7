package search

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"

	"github.com/cerebro-mem/cerebro/internal/text/textan"
)

// Params are the settings baked into an index; changing any of them
// changes the fingerprint and rebuilds the index.
type Params struct {
	ChunkTokens   int
	OverlapTokens int
	Embedder      Embedder // nil for BM25 only
	// NoteBytes bounds each file read: the limits.note_bytes of the
	// project the roots belong to (0: safefs.DefaultNoteBytes). A larger
	// file is left out of the index.
	NoteBytes int64
}

// fingerprint is what a root's chunks were made with: the schema (whose
// version stands for the code that fills the title, headings and link
// fields), the stemmer, the chunking and the embedder. FTS5's field
// weights are the desk's (see [keepRank]); every other factor of a score
// is computed at each search.
func (p Params) fingerprint() string {
	emb := "none"
	if p.Embedder != nil {
		emb = p.Embedder.ID()
	}
	return fmt.Sprintf("schema=%d|%s|chunk=%d/%d|embed=%s", schemaVersion, textan.Version, p.ChunkTokens, p.OverlapTokens, emb)
}

// Index is one memory root's part of the desk index (see deskdb.go). It
// is a cache of the Markdown files: deleting it loses nothing,
// [Index.Update] rebuilds it.
type Index struct {
	Root    Root
	Path    string // the database file, the desk's
	params  Params
	db      *sql.DB
	id      int64 // the root's id in the desk index
	Rebuilt bool  // the fingerprint changed (or the root was new) when opened
	// stems memoizes word → stem across the updates of this Index:
	// words repeat, Snowball is slow.
	stems map[string]string
	// hygiene counts what the updates left out (see Hygiene).
	hygiene Hygiene
	// project labels results of another project in a search across
	// projects (its registry id), base is that project's root.
	project, base string
}

// IndexPath is the desk index inside dir (Paths.Indexes()): every root's
// chunks live in the one file.
func IndexPath(dir string, _ Root) string { return filepath.Join(dir, deskFile) }

// schemaVersion is part of the fingerprint: a new schema rebuilds.
// Version 7: one index for the desk, every chunk labelled with its root.
// Version 8: the full-text table keeps no copy of its columns
// (contentless); a chunk's stems are stored as edits of its words.
// Version 9: the ascii tokenizer (see schema).
const schemaVersion = 9

// The full-text table is contentless: FTS5 would otherwise store every
// chunk's stems beside its inverted index, as much again as the text.
// What scoring reads back of a chunk lives in chunks and files: its stems
// as edits of its words (see stemCode), its headings' stems, the file's
// title. contentless_delete lets a changed file's rows go.
//
// What it is given to tokenise is stems, already cut into words and
// folded by textan, one space or newline between them: FTS5 has only to
// split at the spaces. The ascii tokenizer does that (every byte over 127
// is part of a word, an ASCII letter or digit too, the rest splits),
// where unicode61 looked up each character's Unicode class and case
// again, a quarter of a cold index's CPU (TestFTSTermsAreTheStems).
const schema = `
CREATE TABLE IF NOT EXISTS roots(id INTEGER PRIMARY KEY, dir TEXT NOT NULL UNIQUE, fingerprint TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files(
	root INTEGER NOT NULL, path TEXT NOT NULL, mtime INTEGER NOT NULL, size INTEGER NOT NULL,
	hash TEXT NOT NULL, dated INTEGER NOT NULL, title TEXT NOT NULL DEFAULT '', PRIMARY KEY(root, path)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS chunks(
	id INTEGER PRIMARY KEY, root INTEGER NOT NULL, path TEXT NOT NULL, start_line INTEGER NOT NULL,
	end_line INTEGER NOT NULL, text TEXT NOT NULL, tokens INTEGER NOT NULL, embedding BLOB,
	links REAL NOT NULL DEFAULT 0, heads TEXT NOT NULL DEFAULT '', stems BLOB NOT NULL DEFAULT x'');
CREATE INDEX IF NOT EXISTS chunks_path ON chunks(root, path);
CREATE INDEX IF NOT EXISTS files_mtime ON files(root, mtime);
CREATE INDEX IF NOT EXISTS files_dated ON files(root, dated);
CREATE TABLE IF NOT EXISTS dirs(root INTEGER NOT NULL, path TEXT NOT NULL, mtime INTEGER NOT NULL, PRIMARY KEY(root, path)) WITHOUT ROWID;
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(stems, title, heads, root, content='', contentless_delete=1, tokenize='ascii');
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_vocab USING fts5vocab(chunks_fts, 'row');
`

// Open opens root's part of the desk index in dir, creating it, or
// emptying it when it was indexed with other parameters.
func Open(dir string, root Root, p Params) (*Index, error) {
	path := IndexPath(dir, root)
	db, err := acquire(path)
	if err != nil {
		return nil, fmt.Errorf("open index of %s: %w", root.Dir, err)
	}
	ix := &Index{Root: root, Path: path, params: p, db: db}
	if err := ix.prepare(); err != nil {
		release(path)
		return nil, fmt.Errorf("open index of %s: %w", root.Dir, err)
	}
	return ix, nil
}

// Close releases the database.
func (ix *Index) Close() error { return release(ix.Path) }

func (ix *Index) prepare() error {
	want := ix.params.fingerprint()
	id, have, ok, err := rootRow(context.Background(), ix.db, ix.Root.Dir)
	if err != nil {
		return err
	}
	if ok && have == want {
		ix.id = id
		return nil
	}
	w, err := ix.begin()
	if err != nil {
		return fmt.Errorf("rebuild: %w", err)
	}
	defer w.rollback()
	defer rootsChanged(ix.Path)
	ix.Rebuilt = true
	if ok {
		ix.id = id
		if err := w.dropRoot(id); err != nil {
			return err
		}
		if _, err := w.tx.Exec(`UPDATE roots SET fingerprint=? WHERE id=?`, want, id); err != nil {
			return fmt.Errorf("rebuild: %w", err)
		}
	} else {
		// another process may have added it since we looked
		res, err := w.tx.Exec(`INSERT INTO roots(dir, fingerprint) VALUES(?, ?) ON CONFLICT(dir) DO UPDATE SET fingerprint=excluded.fingerprint`,
			filepath.Clean(ix.Root.Dir), want)
		if err != nil {
			return fmt.Errorf("add root: %w", err)
		}
		_ = res
		if err := w.tx.QueryRow(`SELECT id FROM roots WHERE dir=?`, filepath.Clean(ix.Root.Dir)).Scan(&ix.id); err != nil {
			return fmt.Errorf("add root: %w", err)
		}
	}
	return w.commit()
}

type queryRower interface {
	QueryRow(query string, args ...any) *sql.Row
}

// Fingerprint is the stored fingerprint.
func (ix *Index) Fingerprint() (string, error) {
	var fp string
	err := ix.db.QueryRow(`SELECT fingerprint FROM roots WHERE id=?`, ix.id).Scan(&fp)
	return fp, err
}

// UpdateStats says what one [Index.Update] did.
type UpdateStats struct {
	Files    int  // Markdown files found under the root
	Indexed  int  // files (re)read and re-chunked
	Removed  int  // files gone from disk and dropped from the index
	Pending  int  // changed files left for later when the time ran out
	Complete bool // the index matches the files
	Chunks   int  // chunks written
	// Hygiene is what the files read left out of the index: embedded
	// data, minified lines, binary files.
	Hygiene Hygiene
	// EmbedErr is the provider's failure, if any; chunks without a vector
	// are embedded by a later update.
	EmbedErr error
}

// Stats counts what the index holds.
func (ix *Index) Stats() (files, chunks int, err error) {
	if err = ix.db.QueryRow(`SELECT count(*) FROM files WHERE root=?`, ix.id).Scan(&files); err != nil {
		return 0, 0, fmt.Errorf("count index: %w", err)
	}
	if err = ix.db.QueryRow(`SELECT count(*) FROM chunks WHERE root=?`, ix.id).Scan(&chunks); err != nil {
		return 0, 0, fmt.Errorf("count index: %w", err)
	}
	return files, chunks, nil
}
