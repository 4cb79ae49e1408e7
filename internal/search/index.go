package search

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/cerebro-mem/cerebro/internal/store/sqlitedb"
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

func (p Params) fingerprint() string {
	emb := "none"
	if p.Embedder != nil {
		emb = p.Embedder.ID()
	}
	return fmt.Sprintf("schema=%d|%s|chunk=%d/%d|embed=%s", schemaVersion, textan.Version, p.ChunkTokens, p.OverlapTokens, emb)
}

// Index is the SQLite FTS5 index of one memory root. It is a cache of the
// Markdown files: deleting it loses nothing, [Index.Update] rebuilds it.
type Index struct {
	Root    Root
	Path    string // the database file
	params  Params
	db      *sql.DB
	Rebuilt bool // the fingerprint changed (or the index was new) when opened
	// stems memoizes word → stem across the updates of this Index:
	// words repeat, Snowball is slow.
	stems map[string]string
	// hygiene counts what the updates left out (see Hygiene).
	hygiene Hygiene
}

// IndexPath is where the index of root lives inside dir (Paths.Indexes()):
// the file is named from a hash of the root's path.
func IndexPath(dir string, root Root) string {
	sum := sha256.Sum256([]byte(filepath.Clean(root.Dir)))
	return filepath.Join(dir, hex.EncodeToString(sum[:8])+".sqlite")
}

// schemaVersion is part of the fingerprint: a new schema rebuilds.
// Version 6: FTS5 keeps which columns a stem is in, not its positions
// (detail=column): FTS5 only picks the candidates, which are scored again
// from their stems, and the positions were about 5% of the index.
const schemaVersion = 6

const schema = `
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files(
	path TEXT PRIMARY KEY, mtime INTEGER NOT NULL, size INTEGER NOT NULL,
	hash TEXT NOT NULL, dated INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS chunks(
	id INTEGER PRIMARY KEY, path TEXT NOT NULL, start_line INTEGER NOT NULL,
	end_line INTEGER NOT NULL, text TEXT NOT NULL, tokens INTEGER NOT NULL, embedding BLOB,
	links REAL NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS chunks_path ON chunks(path);
CREATE INDEX IF NOT EXISTS files_mtime ON files(mtime);
CREATE TABLE IF NOT EXISTS dirs(path TEXT PRIMARY KEY, mtime INTEGER NOT NULL);
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(stems, title, heads, tokenize='unicode61 remove_diacritics 0', detail=column);
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_vocab USING fts5vocab(chunks_fts, 'row');
`

// Open opens (creating or rebuilding as needed) the index of root in dir.
func Open(dir string, root Root, p Params) (*Index, error) {
	path := IndexPath(dir, root)
	db, err := sqlitedb.Reopen(path)
	if err != nil {
		return nil, fmt.Errorf("open index of %s: %w", root.Dir, err)
	}
	ix := &Index{Root: root, Path: path, params: p, db: db}
	if err := ix.prepare(); err != nil {
		db.Close()
		return nil, fmt.Errorf("open index of %s: %w", root.Dir, err)
	}
	return ix, nil
}

// Close releases the database.
func (ix *Index) Close() error { return ix.db.Close() }

func (ix *Index) prepare() error {
	want := ix.params.fingerprint()
	// An index as its last update left it answers at once; only a new
	// file (no meta table yet) is given one first: a statement fewer on
	// every open, and a search across projects opens a dozen indexes.
	if have, err := storedFingerprint(ix.db); err == nil && have == want {
		return nil
	}
	if _, err := ix.db.Exec(`CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)`); err != nil {
		return fmt.Errorf("create schema: %w", err)
	}
	if have, err := storedFingerprint(ix.db); err != nil || have == want {
		return err
	}
	tx, err := ix.db.Begin()
	if err != nil {
		return fmt.Errorf("rebuild: %w", err)
	}
	defer tx.Rollback()
	// another process may have rebuilt it since we looked
	if have, err := storedFingerprint(tx); err != nil || have == want {
		return err
	}
	ix.Rebuilt = true
	for _, q := range []string{
		`DROP TABLE IF EXISTS chunks_vocab`, `DROP TABLE IF EXISTS chunks_fts`,
		`DROP TABLE IF EXISTS chunks`, `DROP TABLE IF EXISTS files`, `DROP TABLE IF EXISTS dirs`, `DELETE FROM meta`, schema,
	} {
		if _, err := tx.Exec(q); err != nil {
			return fmt.Errorf("rebuild: %w", err)
		}
	}
	// candidates are picked by BM25 over the three columns weighted as the
	// ranking weighs them (see titleWeight)
	if _, err := tx.Exec(fmt.Sprintf(`INSERT INTO chunks_fts(chunks_fts, rank) VALUES('rank', 'bm25(1.0, %g, %g)')`, titleWeight, headingWeight)); err != nil {
		return fmt.Errorf("rebuild: %w", err)
	}
	if _, err := tx.Exec(`INSERT INTO meta(key, value) VALUES('fingerprint', ?), ('root', ?)`, want, ix.Root.Dir); err != nil {
		return fmt.Errorf("rebuild: %w", err)
	}
	return tx.Commit()
}

type queryRower interface {
	QueryRow(query string, args ...any) *sql.Row
}

func storedFingerprint(db queryRower) (string, error) {
	var fp string
	err := db.QueryRow(`SELECT value FROM meta WHERE key='fingerprint'`).Scan(&fp)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read fingerprint: %w", err)
	}
	return fp, nil
}

// Fingerprint is the stored fingerprint.
func (ix *Index) Fingerprint() (string, error) {
	var fp string
	err := ix.db.QueryRow(`SELECT value FROM meta WHERE key='fingerprint'`).Scan(&fp)
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

type fileState struct {
	mtime, size int64
	hash        string
}

// Update brings the index up to date with the files: only files whose
// mtime or size changed are read, and only those whose content hash
// changed are re-chunked. When ctx ends it stops between files and
// reports what is pending; what it did so far is kept. progress, when not
// nil, hears about each file examined.
func (ix *Index) Update(ctx context.Context, now time.Time, progress func(done, total int)) (UpdateStats, error) {
	var st UpdateStats
	disk, dirs, err := ix.scan()
	if err != nil {
		return st, err
	}
	st.Files = len(disk)
	stored := map[string]fileState{}
	rows, err := ix.db.Query(`SELECT path, mtime, size, hash FROM files`)
	if err != nil {
		return st, fmt.Errorf("update index of %s: read files: %w", ix.Root.Dir, err)
	}
	for rows.Next() {
		var p string
		var s fileState
		if err := rows.Scan(&p, &s.mtime, &s.size, &s.hash); err != nil {
			rows.Close()
			return st, fmt.Errorf("update index of %s: read files: %w", ix.Root.Dir, err)
		}
		stored[p] = s
	}
	rows.Close()

	var changed []string
	for p, d := range disk {
		if s, ok := stored[p]; !ok || s.mtime != d.mtime || s.size != d.size {
			changed = append(changed, p)
		}
	}
	var gone []string
	for p := range stored {
		if _, ok := disk[p]; !ok {
			gone = append(gone, p)
		}
	}
	if len(changed) == 0 && len(gone) == 0 && ix.sameDirs(dirs) {
		st.Complete = true // nothing to write: a search must not wait on the write lock
		if ix.params.Embedder != nil && ctx.Err() == nil {
			st.EmbedErr = ix.embedMissing(ctx)
		}
		return st, nil
	}
	w, err := ix.begin()
	if err != nil {
		return st, err
	}
	defer w.rollback()
	for _, p := range gone {
		if err := w.deleteFile(p, true); err != nil {
			return st, err
		}
		st.Removed++
	}
	for i, p := range changed {
		if ctx.Err() != nil {
			st.Pending = len(changed) - i
			break
		}
		before := ix.hygiene
		n, err := ix.indexFile(w, p, disk[p], stored[p].hash, now)
		if err != nil {
			return st, err
		}
		st.Hygiene.add(Hygiene{Blobs: ix.hygiene.Blobs - before.Blobs, BlobBytes: ix.hygiene.BlobBytes - before.BlobBytes,
			BinaryFiles: ix.hygiene.BinaryFiles - before.BinaryFiles})
		if n >= 0 {
			st.Indexed++
			st.Chunks += n
		}
		if progress != nil {
			progress(i+1, len(changed))
		}
		if (i+1)%200 == 0 { // keep transactions and the lock short
			if err := w.commit(); err != nil {
				return st, err
			}
			if w, err = ix.begin(); err != nil {
				return st, err
			}
		}
	}
	if err := w.counts(); err != nil {
		return st, fmt.Errorf("update index of %s: %w", ix.Root.Dir, err)
	}
	// the folders' times say whether a later search may skip the walk
	// (see Refresh); only a complete update vouches for them
	if _, err := w.tx.Exec(`DELETE FROM dirs`); err != nil {
		return st, fmt.Errorf("update index of %s: %w", ix.Root.Dir, err)
	}
	if st.Pending == 0 {
		for d, m := range dirs {
			if _, err := w.tx.Exec(`INSERT INTO dirs(path, mtime) VALUES(?, ?)`, d, m); err != nil {
				return st, fmt.Errorf("update index of %s: %w", ix.Root.Dir, err)
			}
		}
	}
	if err := w.commit(); err != nil {
		return st, err
	}
	st.Complete = st.Pending == 0
	if ix.params.Embedder != nil && ctx.Err() == nil {
		st.EmbedErr = ix.embedMissing(ctx)
	}
	return st, nil
}

// counts stores the chunk count and mean length BM25 needs.
func (w *writer) counts() error {
	_, err := w.tx.Exec(`INSERT OR REPLACE INTO meta(key, value)
		SELECT 'avg_tokens', coalesce(avg(tokens), 1) FROM chunks
		UNION ALL SELECT 'chunks', count(*) FROM chunks`)
	return err
}

// sameDirs reports whether the stored folder times are dirs.
func (ix *Index) sameDirs(dirs map[string]int64) bool {
	stored, err := ix.storedDirs()
	if err != nil || len(stored) != len(dirs) {
		return false
	}
	for d, m := range dirs {
		if stored[d] != m {
			return false
		}
	}
	return true
}

func (ix *Index) storedDirs() (map[string]int64, error) {
	rows, err := ix.db.Query(`SELECT path, mtime FROM dirs`)
	if err != nil {
		return nil, fmt.Errorf("read folders of %s: %w", ix.Root.Dir, err)
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var p string
		var m int64
		if err := rows.Scan(&p, &m); err != nil {
			return nil, fmt.Errorf("read folders of %s: %w", ix.Root.Dir, err)
		}
		out[p] = m
	}
	return out, rows.Err()
}

// scan lists the root's Markdown files by slash-separated relative path,
// and the modification times of its folders (the root is ".").
func (ix *Index) scan() (map[string]fileState, map[string]int64, error) {
	out := map[string]fileState{}
	dirs := map[string]int64{}
	err := filepath.WalkDir(ix.Root.Dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == ix.Root.Dir && errors.Is(err, fs.ErrNotExist) {
				return filepath.SkipAll
			}
			if d != nil && d.IsDir() {
				return filepath.SkipDir // unreadable folder: index the rest
			}
			return nil
		}
		rel, _ := filepath.Rel(ix.Root.Dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if p != ix.Root.Dir && ix.Root.skipped(rel) {
				return filepath.SkipDir
			}
			if info, err := d.Info(); err == nil {
				dirs[rel] = info.ModTime().UnixNano()
			}
			return nil
		}
		if !d.Type().IsRegular() || !strings.EqualFold(filepath.Ext(p), ".md") {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil // vanished while walking
		}
		out[rel] = fileState{mtime: info.ModTime().UnixNano(), size: info.Size()}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("scan %s: %w", ix.Root.Dir, err)
	}
	return out, dirs, nil
}

// indexFile re-reads one file; it returns the chunks written, or -1 when
// the content was unchanged and only the file's stat was refreshed.
func (ix *Index) indexFile(w *writer, rel string, d fileState, oldHash string, now time.Time) (int, error) {
	abs := filepath.Join(ix.Root.Dir, filepath.FromSlash(rel))
	// Memory folders are a repository's to plant: a link, FIFO or device
	// where a note should be is dropped from the index, never read.
	data, err := safefs.ReadNote(abs, ix.params.NoteBytes)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || safefs.Refused(err) {
			return 0, w.deleteFile(rel, true)
		}
		return 0, fmt.Errorf("index %s: %w", abs, err)
	}
	sum := sha256.Sum256(data)
	hash := hex.EncodeToString(sum[:])
	dated := fileDate(ix.Root.Kind, rel, time.Unix(0, d.mtime))
	if hash == oldHash {
		_, err := w.tx.Exec(`UPDATE files SET mtime=?, size=?, dated=? WHERE path=?`, d.mtime, d.size, dated, rel)
		if err != nil {
			return 0, fmt.Errorf("index %s: %w", abs, err)
		}
		return -1, nil
	}
	if err := w.deleteFile(rel, false); err != nil {
		return 0, err
	}
	if _, err := w.tx.Exec(`INSERT OR REPLACE INTO files(path, mtime, size, hash, dated) VALUES(?,?,?,?,?)`,
		rel, d.mtime, d.size, hash, dated); err != nil {
		return 0, fmt.Errorf("index %s: %w", abs, err)
	}
	if isBinary(data) {
		ix.hygiene.BinaryFiles++
		return 0, nil // the file row stays, so an unchanged file is not read again
	}
	lines, body, hy := noteText(data)
	ix.hygiene.add(hy)
	// the frontmatter is metadata, never a snippet's lines: its lines
	// are kept blank (the line numbers stay), its values go into the
	// first chunk's headings field, its title and aliases into the title
	for i := 0; i < body; i++ {
		lines[i] = ""
	}
	chunks := ChunkLines(strings.Join(lines, "\n"), ix.params.ChunkTokens, ix.params.OverlapTokens)
	title := fileTitle(rel, data)
	chain, isHead := headings(lines)
	// overlapping chunks share lines: stem each line of the file once,
	// each distinct word once per update
	lineStems := make([]string, len(lines))
	lineTokens := make([]int, len(lines))
	if ix.stems == nil {
		ix.stems = map[string]string{}
	}
	for i, l := range lines {
		var st []string
		for _, word := range textan.Words(l) {
			stem, ok := ix.stems[word]
			if !ok {
				stem = textan.Stem(word)
				if len(ix.stems) < maxStemMemo {
					ix.stems[word] = stem
				}
			}
			st = append(st, stem)
		}
		lineStems[i], lineTokens[i] = strings.Join(st, " "), len(st)
	}
	for _, c := range chunks {
		stems := strings.Join(lineStems[c.StartLine-1:c.EndLine], "\n")
		tokens := 0
		for _, n := range lineTokens[c.StartLine-1 : c.EndLine] {
			tokens += n
		}
		res, err := w.tx.Exec(`INSERT INTO chunks(path, start_line, end_line, text, tokens, links) VALUES(?,?,?,?,?,?)`,
			rel, c.StartLine, c.EndLine, c.Text, tokens, linkShare(c.Text))
		if err != nil {
			return 0, fmt.Errorf("index %s: %w", abs, err)
		}
		id, _ := res.LastInsertId()
		heads := chunkHeadings(lines, chain, isHead, c.StartLine-1, c.EndLine)
		if body > 0 && c.StartLine == 1 {
			// the frontmatter's values (a description, tags, aliases)
			// still say what the note is about: a field of its first chunk
			heads = strings.TrimSpace(heads + "\n" + frontmatterStems(data))
		}
		if _, err := w.tx.Exec(`INSERT INTO chunks_fts(rowid, stems, title, heads) VALUES(?, ?, ?, ?)`, id, stems, title, heads); err != nil {
			return 0, fmt.Errorf("index %s: %w", abs, err)
		}
	}
	return len(chunks), nil
}

// writer is one write transaction.
type writer struct {
	tx   *sql.Tx
	done bool
}

// maxStemMemo bounds the memo; most text is its few thousand commonest words.
const maxStemMemo = 100_000

func (ix *Index) begin() (*writer, error) {
	tx, err := ix.db.Begin()
	if err != nil {
		return nil, fmt.Errorf("update index of %s: %w", ix.Root.Dir, err)
	}
	return &writer{tx: tx}, nil
}

func (w *writer) commit() error {
	w.done = true
	if err := w.tx.Commit(); err != nil {
		return fmt.Errorf("update index: commit: %w", err)
	}
	return nil
}

func (w *writer) rollback() {
	if !w.done {
		w.tx.Rollback()
	}
}

func (w *writer) deleteFile(rel string, withRow bool) error {
	for _, q := range []string{
		`DELETE FROM chunks_fts WHERE rowid IN (SELECT id FROM chunks WHERE path=?)`,
		`DELETE FROM chunks WHERE path=?`,
	} {
		if _, err := w.tx.Exec(q, rel); err != nil {
			return fmt.Errorf("drop %s from index: %w", rel, err)
		}
	}
	if withRow {
		if _, err := w.tx.Exec(`DELETE FROM files WHERE path=?`, rel); err != nil {
			return fmt.Errorf("drop %s from index: %w", rel, err)
		}
	}
	return nil
}

// Stats counts what the index holds.
func (ix *Index) Stats() (files, chunks int, err error) {
	if err = ix.db.QueryRow(`SELECT count(*) FROM files`).Scan(&files); err != nil {
		return 0, 0, fmt.Errorf("count index: %w", err)
	}
	if err = ix.db.QueryRow(`SELECT count(*) FROM chunks`).Scan(&chunks); err != nil {
		return 0, 0, fmt.Errorf("count index: %w", err)
	}
	return files, chunks, nil
}
