package search

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/store/sqlitedb"
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

// catEntry is one index as the catalog holds it.
type catEntry struct {
	id     int64
	key    string
	chunks float64
	fresh  freshness
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
