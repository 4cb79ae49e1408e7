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
	"sort"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"

	"github.com/cerebro-mem/cerebro/internal/text/textan"
)

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
	// An update on a clock (a search's budget) reads newest first: cut
	// short, it has read what a search most likely asks about (today's
	// daily file, the page being edited). One without reads in path
	// order, which writes the files table and the chunks' path index in
	// key order: denser pages and less to write than random inserts
	// (2.03× against 2.07× the text on the 7,000-note vault). Either way
	// a folder's notes mostly follow one another, read through the folder
	// opened once (see writer.notes).
	_, timed := ctx.Deadline()
	sort.Slice(changed, func(i, j int) bool {
		if a, b := disk[changed[i]], disk[changed[j]]; timed && a.mtime != b.mtime {
			return a.mtime > b.mtime
		}
		return changed[i] < changed[j]
	})
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
	var txFiles, txBytes int64
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
		txFiles, txBytes = txFiles+1, txBytes+disk[p].size
		if txFiles >= txMaxFiles || txBytes >= txMaxBytes {
			txFiles, txBytes = 0, 0
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

// An update commits after txMaxBytes of notes read or txMaxFiles notes,
// whichever comes first: what holds the write lock is the text indexed,
// so a transaction is bounded by its bytes (about a third of a second of
// CPU for 2 MB); the count bounds a vault of tiny notes, where the rows
// are the work. Each commit flushes FTS5's pending terms as a segment of
// their own, later merged: committing every 200 files cost the cold
// index of the 7,000-note vault 6–11% more CPU than these bounds (median
// and best of 8 builds turn about in one process, 2026-12-06).
const (
	txMaxBytes = 2 << 20
	txMaxFiles = 1000
)

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
	data, err := w.notes.Read(abs, ix.params.NoteBytes)
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
