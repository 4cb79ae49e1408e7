package search

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
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
const schemaVersion = 8

// The full-text table is contentless: FTS5 would otherwise store every
// chunk's stems beside its inverted index, as much again as the text.
// What scoring reads back of a chunk lives in chunks and files: its stems
// as edits of its words (see stemCode), its headings' stems, the file's
// title. contentless_delete lets a changed file's rows go.
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
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(stems, title, heads, root, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 0');
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

// dropRoot empties a root's part of the index.
func (w *writer) dropRoot(id int64) error {
	var n, t int64
	if err := w.tx.QueryRow(`SELECT count(*), coalesce(sum(tokens), 0) FROM chunks WHERE root=?`, id).Scan(&n, &t); err != nil {
		return fmt.Errorf("rebuild: %w", err)
	}
	w.addCounts(-n, -t)
	for _, q := range []string{
		`DELETE FROM chunks_fts WHERE rowid IN (SELECT id FROM chunks WHERE root=?)`,
		`DELETE FROM chunks WHERE root=?`, `DELETE FROM files WHERE root=?`, `DELETE FROM dirs WHERE root=?`,
	} {
		if _, err := w.tx.Exec(q, id); err != nil {
			return fmt.Errorf("rebuild: %w", err)
		}
	}
	return nil
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
	rows, err := ix.db.Query(`SELECT path, mtime, size, hash FROM files WHERE root=?`, ix.id)
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
			BinaryFiles: ix.hygiene.BinaryFiles - before.BinaryFiles, CutFiles: ix.hygiene.CutFiles - before.CutFiles})
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
	if _, err := w.tx.Exec(`DELETE FROM dirs WHERE root=?`, ix.id); err != nil {
		return st, fmt.Errorf("update index of %s: %w", ix.Root.Dir, err)
	}
	if st.Pending == 0 {
		for d, m := range dirs {
			if _, err := w.tx.Exec(`INSERT INTO dirs(root, path, mtime) VALUES(?, ?, ?)`, ix.id, d, m); err != nil {
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

// counts stores the chunk count and total length BM25 needs.
func (w *writer) counts() error { return w.saveCounts() }

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
	rows, err := ix.db.Query(`SELECT path, mtime FROM dirs WHERE root=?`, ix.id)
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
		_, err := w.exec(`UPDATE files SET mtime=?, size=?, dated=? WHERE root=? AND path=?`, d.mtime, d.size, dated, ix.id, rel)
		if err != nil {
			return 0, fmt.Errorf("index %s: %w", abs, err)
		}
		return -1, nil
	}
	if isBinary(data) {
		if err := w.putFile(rel, d, hash, dated, "", oldHash != ""); err != nil {
			return 0, fmt.Errorf("index %s: %w", abs, err)
		}
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
	chunked := lines
	if n := len(lines); n > 1 && lines[n-1] == "" {
		chunked = lines[:n-1] // as ChunkLines reads the text the lines make
	}
	chunks := chunkLines(chunked, ix.params.ChunkTokens, ix.params.OverlapTokens)
	title, fm := fileTitle(rel, data)
	if err := w.putFile(rel, d, hash, dated, title, oldHash != ""); err != nil {
		return 0, fmt.Errorf("index %s: %w", abs, err)
	}
	chain, isHead := headings(lines)
	// overlapping chunks share lines: stem each line of the file once,
	// each distinct word once per update
	lineStems := make([]string, len(lines))
	lineTokens := make([]int, len(lines))
	lineCodes := make([][]byte, len(lines))
	if ix.stems == nil {
		ix.stems = map[string]string{}
	}
	var st []string
	for i, l := range lines {
		st = st[:0]
		var code []byte
		for _, word := range textan.Words(l) {
			stem, ok := ix.stems[word]
			if !ok {
				stem = textan.Stem(word)
				if len(ix.stems) < maxStemMemo {
					ix.stems[word] = stem
				}
			}
			st = append(st, stem)
			code = stemCode(code, word, stem)
		}
		lineStems[i], lineTokens[i], lineCodes[i] = strings.Join(st, " "), len(st), code
	}
	var code []byte
	for _, c := range chunks {
		stems := strings.Join(lineStems[c.StartLine-1:c.EndLine], "\n")
		tokens := 0
		code = code[:0]
		for i := c.StartLine - 1; i < c.EndLine; i++ {
			tokens += lineTokens[i]
			code = append(code, lineCodes[i]...)
		}
		heads := chunkHeadings(lines, chain, isHead, c.StartLine-1, c.EndLine)
		if body > 0 && c.StartLine == 1 {
			// the frontmatter's values (a description, tags, aliases)
			// still say what the note is about: a field of its first chunk
			heads = strings.TrimSpace(heads + "\n" + frontmatterStems(fm))
		}
		res, err := w.exec(`INSERT INTO chunks(root, path, start_line, end_line, text, tokens, links, heads, stems) VALUES(?,?,?,?,?,?,?,?,?)`,
			ix.id, rel, c.StartLine, c.EndLine, c.Text, tokens, linkShare(c.Text), heads, code)
		if err != nil {
			return 0, fmt.Errorf("index %s: %w", abs, err)
		}
		id, _ := res.LastInsertId()
		if _, err := w.exec(`INSERT INTO chunks_fts(rowid, stems, title, heads, root) VALUES(?, ?, ?, ?, ?)`, id, stems, title, heads, rootTerm(ix.id)); err != nil {
			return 0, fmt.Errorf("index %s: %w", abs, err)
		}
		w.addCounts(1, int64(tokens))
	}
	return len(chunks), nil
}

// writer is one write transaction of one root.
type writer struct {
	tx   *sql.Tx
	root int64
	done bool
	// the desk's chunk count and total length, changed by this
	// transaction (see saveCounts)
	dChunks, dTokens int64
	// stmts are the transaction's statements, each parsed once: an
	// update runs the same few for every file and chunk, and parsing is
	// most of what a small statement costs
	stmts map[string]*sql.Stmt
}

// maxStemMemo bounds the memo; most text is its few thousand commonest words.
const maxStemMemo = 100_000

func (ix *Index) begin() (*writer, error) {
	tx, err := ix.db.Begin()
	if err != nil {
		return nil, fmt.Errorf("update index of %s: %w", ix.Root.Dir, err)
	}
	return &writer{tx: tx, root: ix.id}, nil
}

// stmt is q prepared in the transaction (closed with it).
func (w *writer) stmt(q string) (*sql.Stmt, error) {
	if st, ok := w.stmts[q]; ok {
		return st, nil
	}
	st, err := w.tx.Prepare(q)
	if err != nil {
		return nil, err
	}
	if w.stmts == nil {
		w.stmts = map[string]*sql.Stmt{}
	}
	w.stmts[q] = st
	return st, nil
}

func (w *writer) exec(q string, args ...any) (sql.Result, error) {
	st, err := w.stmt(q)
	if err != nil {
		return nil, err
	}
	return st.Exec(args...)
}

func (w *writer) queryRow(q string, args ...any) interface{ Scan(...any) error } {
	st, err := w.stmt(q)
	if err != nil {
		return errRow{err}
	}
	return st.QueryRow(args...)
}

// errRow is a row whose query could not be prepared.
type errRow struct{ err error }

func (r errRow) Scan(...any) error { return r.err }

func (w *writer) commit() error {
	w.done = true
	if err := w.saveCounts(); err != nil {
		w.tx.Rollback()
		return fmt.Errorf("update index: commit: %w", err)
	}
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

// putFile writes a file's row, its old chunks dropped. A file the
// caller knew no row of (known false) is only inserted: it has no chunks,
// since they are written with their file's row, and looking for them
// would cost a statement a file in a cold update. If another process
// indexed it meanwhile, the row is there and the file is replaced as a
// known one.
func (w *writer) putFile(rel string, d fileState, hash string, dated int64, title string, known bool) error {
	if !known {
		res, err := w.exec(`INSERT INTO files(root, path, mtime, size, hash, dated, title) VALUES(?,?,?,?,?,?,?) ON CONFLICT DO NOTHING`,
			w.root, rel, d.mtime, d.size, hash, dated, title)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err == nil && n == 1 {
			return nil
		}
	}
	if err := w.deleteFile(rel, false); err != nil {
		return err
	}
	_, err := w.exec(`INSERT OR REPLACE INTO files(root, path, mtime, size, hash, dated, title) VALUES(?,?,?,?,?,?,?)`,
		w.root, rel, d.mtime, d.size, hash, dated, title)
	return err
}

func (w *writer) deleteFile(rel string, withRow bool) error {
	var n, t int64
	if err := w.queryRow(`SELECT count(*), coalesce(sum(tokens), 0) FROM chunks WHERE root=? AND path=?`, w.root, rel).Scan(&n, &t); err != nil {
		return fmt.Errorf("drop %s from index: %w", rel, err)
	}
	if n > 0 {
		w.addCounts(-n, -t)
		for _, q := range []string{
			`DELETE FROM chunks_fts WHERE rowid IN (SELECT id FROM chunks WHERE root=? AND path=?)`,
			`DELETE FROM chunks WHERE root=? AND path=?`,
		} {
			if _, err := w.exec(q, w.root, rel); err != nil {
				return fmt.Errorf("drop %s from index: %w", rel, err)
			}
		}
	}
	if withRow {
		if _, err := w.exec(`DELETE FROM files WHERE root=? AND path=?`, w.root, rel); err != nil {
			return fmt.Errorf("drop %s from index: %w", rel, err)
		}
	}
	return nil
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

// indexOne reads the file rel again into the index, as an update would
// (unchanged content only refreshes its stat), without walking the root.
func (ix *Index) indexOne(ctx context.Context, rel string, now time.Time) error {
	if !strings.EqualFold(filepath.Ext(rel), ".md") {
		return nil
	}
	// a walk would not enter a skipped or hidden folder on its way
	for p := rel; p != "." && p != "/"; p = path.Dir(p) {
		if ix.Root.skipped(p) {
			return nil
		}
	}
	fi, err := os.Lstat(filepath.Join(ix.Root.Dir, filepath.FromSlash(rel)))
	if err != nil || !fi.Mode().IsRegular() {
		return nil // gone, or not a note: the next update drops it
	}
	var old string
	if err := ix.db.QueryRowContext(ctx, `SELECT hash FROM files WHERE root=? AND path=?`, ix.id, rel).Scan(&old); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("index %s: %w", rel, err)
	}
	w, err := ix.begin()
	if err != nil {
		return err
	}
	defer w.rollback()
	if _, err := ix.indexFile(w, rel, fileState{mtime: fi.ModTime().UnixNano(), size: fi.Size()}, old, now); err != nil {
		return err
	}
	return w.commit()
}
