package search

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/cerebro-mem/cerebro/internal/store/sqlitedb"
	"github.com/cerebro-mem/cerebro/internal/text/textan"
)

// The catalog is what a search across the desk's projects knows about an
// index without opening it: opening one costs about a millisecond, and a
// desk of 50 projects has 150 indexes, so a search that opened them all
// would cost tens of times one project's. For each index it keeps the
// file's identity when it was read (its size and modification time, and
// its write-ahead log's), the folders and most recent files its last
// update saw (to tell, by a few stats, that the memory has not changed
// since), and for each word (stem) the number of chunks holding it and the
// most one chunk of it can score for that word. From these a search takes
// the statistics of the whole desk (so that scores compare across
// indexes) and an upper bound of what each index can score for a query,
// and opens only the indexes that can still reach the results.
//
// It is a cache like the indexes: catalog.sqlite in the index folder,
// rebuilt for an index whenever the index file changed, and deleting it
// loses nothing.
type catalog struct {
	db *sql.DB
}

// catalogVersion changes when what the catalog stores or how a bound is
// computed (the ranking's formulas, see wordImpacts) changes: a catalog
// of another version is emptied.
const catalogVersion = "5"

// catalogHot is how many of an index's most recently modified files a
// freshness check stats, as [Index.Refresh] stats its hot files.
const catalogHot = 16

const catalogSchema = `
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS indexes(
	id INTEGER PRIMARY KEY, path TEXT UNIQUE NOT NULL, key TEXT NOT NULL,
	chunks REAL NOT NULL, fresh BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS terms(
	term TEXT NOT NULL, idx INTEGER NOT NULL, df REAL NOT NULL,
	chunk REAL NOT NULL, passage REAL NOT NULL,
	rest_chunk REAL NOT NULL, rest_passage REAL NOT NULL, postings BLOB NOT NULL,
	PRIMARY KEY(term, idx)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS terms_by_index ON terms(idx);
CREATE TABLE IF NOT EXISTS names(
	stem TEXT NOT NULL, idx INTEGER NOT NULL, name TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS names_by_stem ON names(stem);
CREATE INDEX IF NOT EXISTS names_by_index ON names(idx);
`

// CatalogPath is where the catalog of the indexes in dir lives.
func CatalogPath(dir string) string { return filepath.Join(dir, "catalog.sqlite") }

func openCatalog(dir string) (*catalog, error) {
	db, err := sqlitedb.Reopen(CatalogPath(dir))
	if err != nil {
		return nil, fmt.Errorf("open the index catalog: %w", err)
	}
	c := &catalog{db: db}
	if err := c.prepare(); err != nil {
		db.Close()
		return nil, fmt.Errorf("open the index catalog: %w", err)
	}
	return c, nil
}

func (c *catalog) close() error { return c.db.Close() }

func (c *catalog) prepare() error {
	var v string
	// the catalog as it was left answers at once; a new file is given its
	// meta table first
	if err := c.db.QueryRow(`SELECT value FROM meta WHERE key='version'`).Scan(&v); err == nil && v == catalogVersion {
		return nil
	}
	if _, err := c.db.Exec(`CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)`); err != nil {
		return err
	}
	err := c.db.QueryRow(`SELECT value FROM meta WHERE key='version'`).Scan(&v)
	if err == nil && v == catalogVersion {
		return nil
	}
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	tx, err := c.db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, q := range []string{`DROP TABLE IF EXISTS terms`, `DROP TABLE IF EXISTS names`, `DROP TABLE IF EXISTS indexes`, `DELETE FROM meta`, catalogSchema} {
		if _, err := tx.Exec(q); err != nil {
			return err
		}
	}
	if _, err := tx.Exec(`INSERT INTO meta(key, value) VALUES('version', ?)`, catalogVersion); err != nil {
		return err
	}
	return tx.Commit()
}

// freshness is what an index's last update saw: its folders' and its most
// recent files' modification times (and sizes), relative to the root.
type freshness []stamp

// stamp is one folder (size −1) or file as an update saw it.
type stamp struct {
	rel         string
	mtime, size int64
}

// holds reports whether the memory under root still looks as the index
// saw it: every folder and recent file unchanged. No folder recorded (no
// complete update yet) does not hold. A file edited in place that is not
// among the recent ones goes unseen, as in [Index.Refresh] between its
// rotations; the index is caught up when a search opens it.
func (f freshness) holds(root string) bool {
	dirs := 0
	for _, s := range f {
		if s.size < 0 {
			dirs++
		}
	}
	if dirs == 0 {
		return false
	}
	rels := make([]string, len(f))
	for i, s := range f {
		rels[i] = s.rel
	}
	// every name from one open of the root: a search checks every index
	// of the desk so, and walking the root's path again for each name
	// was most of what each stat cost
	same := true
	err := safefs.LstatAll(root, rels, func(i int, st safefs.Stamp, err error) bool {
		s := f[i]
		same = err == nil && st.ModTime == s.mtime && st.IsDir == (s.size < 0) && (s.size < 0 || st.Size == s.size)
		return same
	})
	return err == nil && same
}

// encode packs f as the catalog stores it: read back for every index on
// every search, so not as JSON, whose decoding cost more than the rest of
// the catalog's answer.
func (f freshness) encode() []byte {
	b := binary.AppendUvarint(nil, uint64(len(f)))
	for _, s := range f {
		b = binary.AppendUvarint(b, uint64(len(s.rel)))
		b = append(b, s.rel...)
		b = binary.AppendVarint(b, s.mtime)
		b = binary.AppendVarint(b, s.size)
	}
	return b
}

func decodeFreshness(b []byte) (freshness, bool) {
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)) {
		return nil, false
	}
	b = b[k:]
	f := make(freshness, 0, n)
	for i := uint64(0); i < n; i++ {
		l, k := binary.Uvarint(b)
		if k <= 0 || uint64(len(b)-k) < l {
			return nil, false
		}
		s := stamp{rel: string(b[k : k+int(l)])}
		b = b[k+int(l):]
		if s.mtime, k = binary.Varint(b); k <= 0 {
			return nil, false
		}
		b = b[k:]
		if s.size, k = binary.Varint(b); k <= 0 {
			return nil, false
		}
		b = b[k:]
		f = append(f, s)
	}
	return f, len(b) == 0
}

// catEntry is one index as the catalog holds it.
type catEntry struct {
	id     int64
	key    string
	chunks float64
	fresh  freshness
}

// fileKey identifies the state of an index file by its size and time and
// those of its write-ahead log when it holds frames; "" when there is no
// index file. A reader's open and close leaves it as it was.
func fileKey(path string) string {
	fi, err := os.Stat(path)
	if err != nil {
		return ""
	}
	key := fmt.Sprintf("%d.%d", fi.ModTime().UnixNano(), fi.Size())
	if w, err := os.Stat(path + "-wal"); err == nil && w.Size() > 0 {
		key += fmt.Sprintf("+%d.%d", w.ModTime().UnixNano(), w.Size())
	}
	return key
}

// fileKeys is fileKey of each of paths, all files of the folder dir, from
// one open of it (see safefs.LstatAll): a search reads every index's.
func fileKeys(dir string, paths []string) []string {
	names := make([]string, 0, 2*len(paths))
	for _, p := range paths {
		names = append(names, filepath.Base(p), filepath.Base(p)+"-wal")
	}
	keys := make([]string, len(paths))
	var main safefs.Stamp
	var mainOK bool
	safefs.LstatAll(dir, names, func(i int, st safefs.Stamp, err error) bool {
		if i%2 == 0 {
			main, mainOK = st, err == nil && filepath.Dir(paths[i/2]) == filepath.Clean(dir)
			return true
		}
		if !mainOK {
			return true
		}
		k := fmt.Sprintf("%d.%d", main.ModTime, main.Size)
		if err == nil && st.Size > 0 {
			k += fmt.Sprintf("+%d.%d", st.ModTime, st.Size)
		}
		keys[i/2] = k
		return true
	})
	return keys
}

// entries is every catalogued index by its file's path: one query for
// the whole desk (a few hundred rows), cheaper than one per index.
func (c *catalog) entries(ctx context.Context) (map[string]*catEntry, error) {
	rows, err := c.db.QueryContext(ctx, `SELECT id, path, key, chunks, fresh FROM indexes`)
	if err != nil {
		return nil, fmt.Errorf("read the index catalog: %w", err)
	}
	defer rows.Close()
	out := map[string]*catEntry{}
	for rows.Next() {
		e := &catEntry{}
		var path string
		var fresh []byte
		if err := rows.Scan(&e.id, &path, &e.key, &e.chunks, &fresh); err != nil {
			return nil, fmt.Errorf("read the index catalog: %w", err)
		}
		var ok bool
		if e.fresh, ok = decodeFreshness(fresh); ok { // a damaged row is read again from its index
			out[path] = e
		}
	}
	return out, rows.Err()
}

// wordStat is one word of one index: the chunks holding it and the most
// a chunk (and a passage of it) can score for it, before IDF; with the
// chunks scoring most for it (at most topChunks), each with what it
// scores, and the most any other chunk scores (rest), so that a bound
// knows which words meet in one chunk instead of supposing they all do
// at their best. A word in at most topChunks chunks has them all listed
// and a rest of zero.
type wordStat struct {
	df, chunk, passage float64
	postings           []posting
	rest               impact
}

// impact is what a chunk scores for one word, before IDF: its chunk's
// BM25 share and its best passage's.
type impact struct{ chunk, passage float64 }

// posting is one chunk of a word's list: its id, its impacts, and the
// lines it stands on (bit l mod 64 for line l, numbered as occurrences
// numbers a chunk's lines, its title and headings after its text): two
// words whose masks do not meet stand on no line together, so the
// proximity factor cannot count them close (see bounds.setBounds).
type posting struct {
	id int64
	impact
	lines uint64
}

// topChunks is how many of a word's best chunks its list keeps: enough
// that the chunks where several of a query's words score high are known
// (a bound then adds up what one chunk really holds), few enough that
// the catalog stays a small part of the indexes (bench/across measured).
var topChunks = 128 // a variable: a test shortens the lists

// encodePostings packs a list as the catalog stores it: per chunk its id
// (varint), its two impacts (float32, rounded up, so that a bound read
// back is never below the true one) and its lines (varint).
func encodePostings(ps []posting) []byte {
	b := make([]byte, 0, len(ps)*16)
	for _, p := range ps {
		b = binary.AppendUvarint(b, uint64(p.id))
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(up32(p.chunk)))
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(up32(p.passage)))
		b = binary.AppendUvarint(b, p.lines)
	}
	return b
}

// up32 is the least float32 not below v.
func up32(v float64) float32 {
	f := float32(v)
	if float64(f) < v {
		f = math.Nextafter32(f, float32(math.Inf(1)))
	}
	return f
}

func decodePostings(b []byte) ([]posting, bool) {
	var out []posting
	for len(b) > 0 {
		id, n := binary.Uvarint(b)
		if n <= 0 || len(b) < n+8 {
			return nil, false
		}
		c := math.Float32frombits(binary.LittleEndian.Uint32(b[n:]))
		p := math.Float32frombits(binary.LittleEndian.Uint32(b[n+4:]))
		b = b[n+8:]
		lines, k := binary.Uvarint(b)
		if k <= 0 {
			return nil, false
		}
		out = append(out, posting{id: int64(id), impact: impact{float64(c), float64(p)}, lines: lines})
		b = b[k:]
	}
	return out, true
}

// snapshot reads what the catalog keeps of ix, which is open and caught
// up. The key is written later, by setKey, once the index is closed: a
// close may checkpoint the index and so change its file.
func (c *catalog) snapshot(ctx context.Context, ix *Index) (*catEntry, error) {
	var n float64
	if err := ix.db.QueryRowContext(ctx, `SELECT CAST(value AS REAL) FROM meta WHERE key='chunks'`).Scan(&n); err != nil {
		if err := ix.db.QueryRowContext(ctx, `SELECT count(*) FROM chunks`).Scan(&n); err != nil {
			return nil, fmt.Errorf("catalogue %s: %w", ix.Root.Dir, err)
		}
	}
	dirs, err := ix.storedDirs()
	if err != nil {
		return nil, err
	}
	var fresh freshness
	for rel, m := range dirs {
		fresh = append(fresh, stamp{rel: rel, mtime: m, size: -1})
	}
	rows, err := ix.db.QueryContext(ctx, `SELECT path, mtime, size FROM files ORDER BY mtime DESC LIMIT ?`, catalogHot)
	if err != nil {
		return nil, fmt.Errorf("catalogue %s: %w", ix.Root.Dir, err)
	}
	for rows.Next() {
		var p string
		var m, s int64
		if err := rows.Scan(&p, &m, &s); err != nil {
			rows.Close()
			return nil, fmt.Errorf("catalogue %s: %w", ix.Root.Dir, err)
		}
		fresh = append(fresh, stamp{rel: p, mtime: m, size: s})
	}
	rows.Close()
	words, err := wordImpacts(ctx, ix)
	if err != nil {
		return nil, err
	}
	names, err := fileNames(ctx, ix)
	if err != nil {
		return nil, err
	}
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("write the index catalog: %w", err)
	}
	defer tx.Rollback()
	e := &catEntry{chunks: n, fresh: fresh}
	// no key until the index is closed: a search meanwhile reads it again
	if err := tx.QueryRowContext(ctx, `INSERT INTO indexes(path, key, chunks, fresh) VALUES(?, '', ?, ?)
		ON CONFLICT(path) DO UPDATE SET key='', chunks=excluded.chunks, fresh=excluded.fresh RETURNING id`,
		ix.Path, n, fresh.encode()).Scan(&e.id); err != nil {
		return nil, fmt.Errorf("write the index catalog: %w", err)
	}
	for _, q := range []string{`DELETE FROM terms WHERE idx = ?`, `DELETE FROM names WHERE idx = ?`} {
		if _, err := tx.ExecContext(ctx, q, e.id); err != nil {
			return nil, fmt.Errorf("write the index catalog: %w", err)
		}
	}
	st, err := tx.PrepareContext(ctx, `INSERT INTO terms(term, idx, df, chunk, passage, rest_chunk, rest_passage, postings) VALUES(?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return nil, fmt.Errorf("write the index catalog: %w", err)
	}
	defer st.Close()
	for w, s := range words {
		if _, err := st.ExecContext(ctx, w, e.id, s.df, s.chunk, s.passage, s.rest.chunk, s.rest.passage, encodePostings(s.postings)); err != nil {
			return nil, fmt.Errorf("write the index catalog: %w", err)
		}
	}
	sn, err := tx.PrepareContext(ctx, `INSERT INTO names(stem, idx, name) VALUES(?, ?, ?)`)
	if err != nil {
		return nil, fmt.Errorf("write the index catalog: %w", err)
	}
	defer sn.Close()
	for _, n := range names {
		seen := map[string]bool{}
		for _, stem := range n {
			if seen[stem] {
				continue
			}
			seen[stem] = true
			if _, err := sn.ExecContext(ctx, stem, e.id, strings.Join(n, " ")); err != nil {
				return nil, fmt.Errorf("write the index catalog: %w", err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("write the index catalog: %w", err)
	}
	return e, nil
}

// setKey records the index file's state the snapshot describes.
func (c *catalog) setKey(ctx context.Context, id int64, key string) error {
	_, err := c.db.ExecContext(ctx, `UPDATE indexes SET key = ? WHERE id = ?`, key, id)
	return err
}

// wordImpacts is, for every word of ix, the chunks holding it (FTS5's own
// count, which [Index.docFreqs] reads) and the most one chunk scores for
// it, by the formulas of textCandidates (BM25 with the title and heading
// fields, the chunk's length against the average) and of passageBM25
// (the same count, k1 only; a passage's lines are the chunk's, under its
// title and headings): a query's score in this index is at most what
// these add up to. A word FTS5 knows that the chunks' stems do not show
// gets the highest score a word can have. A word's list is kept only when
// the chunks' stems show it exactly as often as FTS5 counts it: a list
// missing a chunk would make a bound too low.
func wordImpacts(ctx context.Context, ix *Index) (map[string]wordStat, error) {
	out := map[string]wordStat{}
	rows, err := ix.db.QueryContext(ctx, `SELECT term, doc FROM chunks_vocab`)
	if err != nil {
		return nil, fmt.Errorf("catalogue %s: %w", ix.Root.Dir, err)
	}
	for rows.Next() {
		var t string
		var d float64
		if err := rows.Scan(&t, &d); err != nil {
			rows.Close()
			return nil, fmt.Errorf("catalogue %s: %w", ix.Root.Dir, err)
		}
		out[t] = wordStat{df: d, chunk: -1}
	}
	rows.Close()
	var avg float64
	if err := ix.db.QueryRowContext(ctx, `SELECT CAST(value AS REAL) FROM meta WHERE key='avg_tokens'`).Scan(&avg); err != nil || avg <= 0 {
		avg = 1
	}
	rows, err = ix.db.QueryContext(ctx, `SELECT c.id, f.stems, f.title, f.heads, c.tokens FROM chunks c JOIN chunks_fts f ON f.rowid = c.id`)
	if err != nil {
		return nil, fmt.Errorf("catalogue %s: %w", ix.Root.Dir, err)
	}
	defer rows.Close()
	tf := map[string]float64{}
	lines := map[string]uint64{}
	for rows.Next() {
		var id int64
		var stems, title, heads string
		var tokens float64
		if err := rows.Scan(&id, &stems, &title, &heads, &tokens); err != nil {
			return nil, fmt.Errorf("catalogue %s: %w", ix.Root.Dir, err)
		}
		clear(tf)
		for _, w := range strings.Fields(stems) {
			tf[w]++
		}
		clear(lines)
		lineMasks(lines, stems, title, heads)
		for _, f := range []struct {
			text string
			w    float64
		}{{title, titleWeight}, {heads, headingWeight}} {
			seen := map[string]bool{}
			for _, w := range strings.Fields(f.text) {
				if !seen[w] {
					seen[w] = true
					tf[w] += f.w
				}
			}
		}
		norm := bm25K1 * (1 - bm25B + bm25B*tokens/avg)
		for w, f := range tf {
			s, ok := out[w]
			if !ok {
				continue
			}
			ci, pi := f*(bm25K1+1)/(f+norm), f*(passageK1+1)/(f+passageK1)
			s.chunk, s.passage = math.Max(s.chunk, ci), math.Max(s.passage, pi)
			s.postings = append(s.postings, posting{id: id, impact: impact{ci, pi}, lines: lines[w]})
			out[w] = s
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("catalogue %s: %w", ix.Root.Dir, err)
	}
	for w, s := range out {
		if s.chunk < 0 {
			s.chunk, s.passage = bm25K1+1, passageK1+1
		}
		if float64(len(s.postings)) != s.df {
			s.postings, s.rest = nil, impact{s.chunk, s.passage}
		} else if len(s.postings) > topChunks {
			// best first by the score they add to; the others are
			// bounded by the most any of them scores
			ps := s.postings
			sort.Slice(ps, func(i, j int) bool {
				vi, vj := ps[i].chunk+ps[i].passage, ps[j].chunk+ps[j].passage
				if vi != vj {
					return vi > vj
				}
				return ps[i].id < ps[j].id
			})
			for _, p := range ps[topChunks:] {
				s.rest.chunk, s.rest.passage = math.Max(s.rest.chunk, p.chunk), math.Max(s.rest.passage, p.passage)
			}
			s.postings = slices.Clip(ps[:topChunks])
		}
		out[w] = s
	}
	return out, nil
}

// lineMasks sets into masks, for each stem of a chunk, the lines it
// stands on (see posting), numbered as occurrences numbers them: its
// text's lines from 0, then its title's and its headings' after them.
func lineMasks(masks map[string]uint64, texts ...string) {
	line := 0
	for _, t := range texts {
		for _, l := range strings.Split(t, "\n") {
			for _, w := range strings.Split(l, " ") {
				if w != "" {
					masks[w] |= 1 << (line % 64)
				}
			}
			line++
		}
	}
}

// fileNames is the stems of each page's name in ix (days' logs left
// out), as [namesFile] reads them: a query naming a page boosts its hits,
// so a bound must know whether the index holds one.
func fileNames(ctx context.Context, ix *Index) ([][]string, error) {
	rows, err := ix.db.QueryContext(ctx, `SELECT path FROM files`)
	if err != nil {
		return nil, fmt.Errorf("catalogue %s: %w", ix.Root.Dir, err)
	}
	defer rows.Close()
	var out [][]string
	for rows.Next() {
		var rel string
		if err := rows.Scan(&rel); err != nil {
			return nil, fmt.Errorf("catalogue %s: %w", ix.Root.Dir, err)
		}
		if isLog(rel) {
			continue
		}
		if st := textan.Stems(strings.TrimSuffix(path.Base(rel), path.Ext(rel))); len(st) > 0 {
			out = append(out, st)
		}
	}
	return out, rows.Err()
}

// words reads the catalogued statistics of stems for the indexes ids.
func (c *catalog) words(ctx context.Context, ids map[int64]bool, stems []string) (map[int64]map[string]wordStat, error) {
	out := map[int64]map[string]wordStat{}
	if len(stems) == 0 || len(ids) == 0 {
		return out, nil
	}
	args, marks := stemArgs(stems)
	rows, err := c.db.QueryContext(ctx, `SELECT term, idx, df, chunk, passage, rest_chunk, rest_passage, postings FROM terms WHERE term IN (`+marks+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("read the index catalog: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var t string
		var id int64
		var s wordStat
		var post []byte
		if err := rows.Scan(&t, &id, &s.df, &s.chunk, &s.passage, &s.rest.chunk, &s.rest.passage, &post); err != nil {
			return nil, fmt.Errorf("read the index catalog: %w", err)
		}
		if !ids[id] {
			continue
		}
		var ok bool
		if s.postings, ok = decodePostings(post); !ok {
			s.postings, s.rest = nil, impact{s.chunk, s.passage} // unreadable: any chunk may score its best
		}
		if out[id] == nil {
			out[id] = map[string]wordStat{}
		}
		out[id][t] = s
	}
	return out, rows.Err()
}

// named is the indexes among ids holding a page the query's stems name
// (every word of its name among them).
func (c *catalog) named(ctx context.Context, ids map[int64]bool, stems []string) (map[int64]bool, error) {
	out := map[int64]bool{}
	if len(stems) == 0 || len(ids) == 0 {
		return out, nil
	}
	args, marks := stemArgs(stems)
	rows, err := c.db.QueryContext(ctx, `SELECT DISTINCT idx, name FROM names WHERE stem IN (`+marks+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("read the index catalog: %w", err)
	}
	defer rows.Close()
	q := map[string]bool{}
	for _, s := range stems {
		q[s] = true
	}
	for rows.Next() {
		var id int64
		var name string
		if err := rows.Scan(&id, &name); err != nil {
			return nil, fmt.Errorf("read the index catalog: %w", err)
		}
		if !ids[id] || out[id] {
			continue
		}
		all := true
		for _, s := range strings.Fields(name) {
			all = all && q[s]
		}
		out[id] = all
	}
	return out, rows.Err()
}

func stemArgs(stems []string) ([]any, string) {
	args := make([]any, len(stems))
	marks := make([]string, len(stems))
	for i, s := range stems {
		args[i], marks[i] = s, "?"
	}
	return args, strings.Join(marks, ",")
}
