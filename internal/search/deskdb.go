package search

import (
	"context"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/cerebro-mem/cerebro/internal/store/sqlitedb"
)

// One index for the desk. Every memory root of every project — short and
// long-term memory, auto-memory, extra folders, the org desk — is indexed
// into one SQLite file in the state dir's index folder, each chunk
// labelled with its root. A search of one project and a search across
// the desk run the same FTS5 query over the same table (the roots asked
// for are a term of the query), score with the same word statistics (the
// desk's), and so rank one passage alike whatever the scope; a search
// across projects is one query, not one per project, and needs no catalog
// of what each project holds.

// deskFile is the desk index's name in the index folder.
const deskFile = "desk.sqlite"

// rootTerm is the term of the FTS5 root column naming a root: the roots
// a search asks for are a filter of its MATCH, so FTS5 reads only their
// chunks' entries. Its letters keep it apart from any stem of a note
// (textan keeps words with digits as they are, so a note saying
// "cerebroroot7" would be the only one to meet it, and only in the root
// column, which no query word is looked for in).
func rootTerm(id int64) string { return "cerebroroot" + strconv.FormatInt(id, 10) }

// shared is one open desk index, shared by the [Index] of every root in
// it within a process: a search across projects opens dozens of roots and
// one connection pool.
type shared struct {
	db   *sql.DB
	refs int
	// roots is the roots table as read by the first [OpenIndexed] of a
	// search across projects, at rootsAt: that search opens every root
	// of the desk, a query each otherwise
	roots   map[string]rootEntry
	rootsAt time.Time
}

type rootEntry struct {
	id int64
	fp string
}

// rootsFor is how long a read of the roots table serves: a search
// across projects opens its roots within it, and a root added or
// indexed again since is read from the table (see indexedRow).
const rootsFor = 2 * time.Second

var handles = struct {
	sync.Mutex
	m map[string]*shared
}{m: map[string]*shared{}}

// acquire opens (or shares) the desk index at path, its schema made.
func acquire(path string) (*sql.DB, error) {
	handles.Lock()
	defer handles.Unlock()
	if s, ok := handles.m[path]; ok {
		s.refs++
		return s.db, nil
	}
	if _, err := os.Stat(path); err != nil {
		removeOldIndexes(filepath.Dir(path))
	}
	db, err := sqlitedb.Reopen(path)
	if err != nil {
		return nil, err
	}
	if err := makeSchema(db, ftsRank(titleWeight, headingWeight)); err != nil {
		db.Close()
		return nil, err
	}
	handles.m[path] = &shared{db: db, refs: 1}
	return db, nil
}

// removeOldIndexes deletes what the per-root indexes of before the desk
// index left in dir (a file per root named by its hash, the catalog):
// caches nothing reads any more, up to hundreds of megabytes.
func removeOldIndexes(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		base, _, _ := strings.Cut(name, ".")
		old := base == "catalog"
		if len(base) == 16 {
			if _, err := hex.DecodeString(base); err == nil {
				old = true
			}
		}
		if old && e.Type().IsRegular() && strings.HasPrefix(name[len(base):], ".sqlite") {
			safefs.Remove(filepath.Join(dir, name))
		}
	}
}

// release closes the desk index at path when its last user is done.
func release(path string) error {
	handles.Lock()
	defer handles.Unlock()
	s, ok := handles.m[path]
	if !ok {
		return nil
	}
	if s.refs--; s.refs > 0 {
		return nil
	}
	delete(handles.m, path)
	return s.db.Close()
}

// makeSchema creates the desk's tables, or drops and makes them again
// when they are of another schema version: an index is a cache. rank is
// FTS5's rank of the candidates ([ftsRank]), set when it differs from
// the index's.
func makeSchema(db *sql.DB, rank string) error {
	want := strconv.Itoa(schemaVersion)
	if have, err := metaValue(db, "schema"); err == nil && have == want {
		return keepRank(db, rank)
	}
	tx, err := db.Begin()
	if err != nil {
		return fmt.Errorf("create index schema: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec(`CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)`); err != nil {
		return fmt.Errorf("create index schema: %w", err)
	}
	// another process may have made it since we looked
	if have, err := metaValue(tx, "schema"); err == nil && have == want {
		tx.Rollback()
		return keepRank(db, rank)
	}
	for _, q := range []string{
		`DROP TABLE IF EXISTS chunks_vocab`, `DROP TABLE IF EXISTS chunks_fts`, `DROP TABLE IF EXISTS chunks`,
		`DROP TABLE IF EXISTS files`, `DROP TABLE IF EXISTS dirs`, `DROP TABLE IF EXISTS roots`, `DELETE FROM meta`, schema,
		`INSERT INTO meta(key, value) VALUES('chunks', '0'), ('tokens', '0')`,
	} {
		if _, err := tx.Exec(q); err != nil {
			return fmt.Errorf("create index schema: %w", err)
		}
	}
	if _, err := tx.Exec(`INSERT INTO meta(key, value) VALUES('schema', ?)`, want); err != nil {
		return fmt.Errorf("create index schema: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("create index schema: %w", err)
	}
	return keepRank(db, rank)
}

// keepRank sets FTS5's rank to rank when the index was made with other
// field weights. Only the candidates' order depends on it: nothing is
// indexed again.
func keepRank(db *sql.DB, rank string) error {
	if have, err := metaValue(db, "rank"); err == nil && have == rank {
		return nil
	}
	tx, err := db.Begin()
	if err != nil {
		return fmt.Errorf("set the index's field weights: %w", err)
	}
	defer tx.Rollback()
	for _, q := range []string{`INSERT INTO chunks_fts(chunks_fts, rank) VALUES('rank', ?)`, `INSERT OR REPLACE INTO meta(key, value) VALUES('rank', ?)`} {
		if _, err := tx.Exec(q, rank); err != nil {
			return fmt.Errorf("set the index's field weights: %w", err)
		}
	}
	return tx.Commit()
}

func metaValue(db queryRower, key string) (string, error) {
	var v string
	err := db.QueryRow(`SELECT value FROM meta WHERE key=?`, key).Scan(&v)
	return v, err
}

// rootRow finds root's id and fingerprint in the desk index; ok is false
// when it has none yet.
func rootRow(ctx context.Context, db *sql.DB, dir string) (id int64, fp string, ok bool, err error) {
	err = db.QueryRowContext(ctx, `SELECT id, fingerprint FROM roots WHERE dir=?`, filepath.Clean(dir)).Scan(&id, &fp)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, "", false, nil
	}
	if err != nil {
		return 0, "", false, fmt.Errorf("read index of %s: %w", dir, err)
	}
	return id, fp, true, nil
}

// OpenIndexed opens root's part of the desk index as it is, for reading:
// nil when it was never indexed with params (a search then says so,
// rather than indexing it on its clock).
func OpenIndexed(dir string, root Root, p Params) (*Index, error) {
	path := filepath.Join(dir, deskFile)
	if _, err := os.Stat(path); err != nil {
		return nil, nil
	}
	db, err := acquire(path)
	if err != nil {
		return nil, fmt.Errorf("open index of %s: %w", root.Dir, err)
	}
	id, ok, err := indexedRow(path, db, root.Dir, p.fingerprint())
	if err != nil || !ok {
		release(path)
		return nil, err
	}
	return &Index{Root: root, Path: path, params: p, db: db, id: id}, nil
}

// indexedRow finds the id of root dir in the desk index at path when it
// is indexed with the fingerprint want: in the roots table as last read
// within rootsFor, else in the table itself.
func indexedRow(path string, db *sql.DB, dir, want string) (int64, bool, error) {
	dir = filepath.Clean(dir)
	handles.Lock()
	s := handles.m[path]
	var roots map[string]rootEntry
	if s != nil && time.Since(s.rootsAt) < rootsFor {
		roots = s.roots
	}
	handles.Unlock()
	if roots == nil {
		all, err := readRoots(db)
		if err != nil {
			return 0, false, err
		}
		roots = all
		handles.Lock()
		if s != nil {
			s.roots, s.rootsAt = all, time.Now()
		}
		handles.Unlock()
	}
	if e, ok := roots[dir]; ok && e.fp == want {
		return e.id, true, nil
	}
	// not there or indexed otherwise when read: the table says now
	id, fp, ok, err := rootRow(context.Background(), db, dir)
	return id, ok && fp == want, err
}

// rootsChanged drops the roots table as read (see indexedRow) after
// this process added a root or indexed one again with other settings.
func rootsChanged(path string) {
	handles.Lock()
	if s := handles.m[path]; s != nil {
		s.roots = nil
	}
	handles.Unlock()
}

// readRoots is the desk's roots table by folder.
func readRoots(db *sql.DB) (map[string]rootEntry, error) {
	rows, err := db.Query(`SELECT id, dir, fingerprint FROM roots`)
	if err != nil {
		return nil, fmt.Errorf("read the index's roots: %w", err)
	}
	defer rows.Close()
	out := map[string]rootEntry{}
	for rows.Next() {
		var e rootEntry
		var dir string
		if err := rows.Scan(&e.id, &dir, &e.fp); err != nil {
			return nil, fmt.Errorf("read the index's roots: %w", err)
		}
		out[dir] = e
	}
	return out, rows.Err()
}

// deltas keeps the desk's chunk count and total length, which BM25's
// IDF and length normalisation read, without counting the table.
func (w *writer) addCounts(chunks, tokens int64) {
	w.dChunks += chunks
	w.dTokens += tokens
}

func (w *writer) saveCounts() error {
	if w.dChunks == 0 && w.dTokens == 0 {
		return nil
	}
	_, err := w.tx.Exec(`UPDATE meta SET value = CAST(value AS INTEGER) + (CASE key WHEN 'chunks' THEN ? ELSE ? END) WHERE key IN ('chunks', 'tokens')`,
		w.dChunks, w.dTokens)
	w.dChunks, w.dTokens = 0, 0
	return err
}
