// Package tables is the growing relational store of the memory black box
// (skill use-tables). Tables grow by four hands — [Store.Write] a value in
// place, [Store.NewKind] (value, claim kind, basis and time columns),
// [Store.Promote] a value to a list table, [Store.Append] to a list table —
// and every model-born name passes [Normalize] before it reaches SQL.
//
// Every write is first appended to a JSON-lines journal under the project's
// long-term memory; the SQLite database is a cache that [Open] rebuilds or
// catches up from the journal, so deleting it loses nothing.
//
//	s, err := tables.Open(journalPath, dbPath)
//	defer s.Close()
//	created, err := s.Create("friends", now)
package tables

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/cerebro-mem/cerebro/internal/store/sqlitedb"
)

// Table shapes.
const (
	ShapeRoot = "root" // one row per key and scope, a column group per kind
	ShapeList = "list" // many rows per key, each value with its own time
)

// ErrNoTable and ErrNoKind mean a hand needs a table or kind made first.
var (
	ErrNoTable = errors.New("no such table")
	ErrNoKind  = errors.New("no such kind")
	ErrShape   = errors.New("wrong table shape")
)

// Store is an open relational store.
type Store struct {
	db      *sql.DB
	journal string
}

// Open opens the cache at dbPath and brings it up to date with the journal.
func Open(journal, dbPath string) (*Store, error) {
	db, err := sqlitedb.Open(dbPath)
	if err != nil {
		return nil, err
	}
	s := &Store{db: db, journal: journal}
	if err := s.sync(); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// Close closes the cache.
func (s *Store) Close() error { return s.db.Close() }

const schema = `
CREATE TABLE IF NOT EXISTS _meta(k TEXT PRIMARY KEY, v TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS _tables(name TEXT PRIMARY KEY, shape TEXT NOT NULL, parent TEXT NOT NULL DEFAULT '', parent_kind TEXT NOT NULL DEFAULT '', created TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS _kinds(tbl TEXT NOT NULL, kind TEXT NOT NULL, created TEXT NOT NULL, PRIMARY KEY(tbl, kind));
CREATE TABLE IF NOT EXISTS _skipped(at INTEGER PRIMARY KEY, line TEXT NOT NULL, error TEXT NOT NULL);`

// sync replays the journal tail the cache has not seen; a journal shorter
// than what the cache saw was replaced, so the cache starts over. The
// offset is read inside the write transaction, so two processes catching
// up at once never apply the same ops twice.
func (s *Store) sync() error {
	if _, err := s.db.Exec(schema); err != nil {
		return fmt.Errorf("create table cache schema: %w", err)
	}
	size := int64(0)
	if st, err := os.Stat(s.journal); err == nil {
		size = st.Size()
	}
	if s.offset() == size {
		return nil // the common case costs one read, no write lock
	}
	tx, err := s.db.Begin()
	if err != nil {
		return fmt.Errorf("begin table cache replay: %w", err)
	}
	defer tx.Rollback()
	off := s.offsetIn(tx)
	if off > size {
		if err := reset(tx); err != nil {
			return err
		}
		off = 0
	}
	ops, end, err := readOps(s.journal, off)
	if err != nil {
		return err
	}
	// Each op applies whole or not at all (a savepoint each): an op that
	// cannot apply — a hand-edited line, one journaled by an older memhook
	// that checked less — is skipped and recorded, and every later op
	// still applies. One bad line must not take the store down for good.
	for _, e := range ops {
		err := e.bad
		if err == nil {
			err = applyOne(tx, e.op)
		}
		if err != nil {
			if _, xerr := tx.Exec(`INSERT OR REPLACE INTO _skipped(at, line, error) VALUES(?,?,?)`, e.at, string(e.line), err.Error()); xerr != nil {
				return fmt.Errorf("record skipped table op at byte %d: %w", e.at, xerr)
			}
		}
	}
	if _, err := tx.Exec(`INSERT OR REPLACE INTO _meta(k,v) VALUES('offset',?)`, strconv.FormatInt(end, 10)); err != nil {
		return fmt.Errorf("record table journal offset: %w", err)
	}
	return tx.Commit()
}

func (s *Store) offset() int64 { return s.offsetIn(s.db) }

func (s *Store) offsetIn(q querier) int64 {
	var v string
	if err := q.QueryRow(`SELECT v FROM _meta WHERE k='offset'`).Scan(&v); err != nil {
		return 0
	}
	off, _ := strconv.ParseInt(v, 10, 64)
	return off
}

func reset(tx *sql.Tx) error {
	rows, err := tx.Query(`SELECT name FROM _tables`)
	if err != nil {
		return fmt.Errorf("list cached tables: %w", err)
	}
	var names []string
	for rows.Next() {
		var n string
		rows.Scan(&n)
		names = append(names, n)
	}
	rows.Close()
	for _, n := range names {
		if _, err := tx.Exec(`DROP TABLE IF EXISTS ` + sqlName(n)); err != nil {
			return fmt.Errorf("drop cached table %s: %w", n, err)
		}
	}
	_, err = tx.Exec(`DELETE FROM _tables; DELETE FROM _kinds; DELETE FROM _meta; DELETE FROM _skipped;`)
	return err
}

// applyOne applies op inside a savepoint, so a failing op leaves nothing
// half-done (a kind is four ALTERs).
func applyOne(tx *sql.Tx, op Op) error {
	if _, err := tx.Exec(`SAVEPOINT op`); err != nil {
		return err
	}
	err := checkNames(op)
	if err == nil {
		err = apply(tx, op)
	}
	if err != nil {
		if _, rerr := tx.Exec(`ROLLBACK TO op`); rerr != nil {
			return fmt.Errorf("%w (and rolling it back: %v)", err, rerr)
		}
	}
	tx.Exec(`RELEASE op`)
	return err
}

// checkNames refuses names that did not pass Normalize or collide with
// the columns every row has: a journal line is text anyone could edit.
func checkNames(op Op) error {
	for _, n := range []string{op.Table, op.List} {
		if n == "" {
			continue
		}
		if got, err := Normalize(n); err != nil || got != n {
			return fmt.Errorf("name %q is not a normalised name", n)
		}
	}
	if op.Kind != "" {
		if got, err := Normalize(op.Kind); err != nil || got != op.Kind {
			return fmt.Errorf("kind %q is not a normalised name", op.Kind)
		}
		if err := reservedKind(op.Kind); err != nil {
			return err
		}
	}
	if op.Op == "" || op.Table == "" {
		return fmt.Errorf("op %q without a table", op.Op)
	}
	return nil
}

// ReservedKinds are the columns every root row already has; a kind of the
// same name would add a column twice.
var ReservedKinds = []string{"id", "key", "calendar", "geo", "created"}

// ErrReserved means a kind's name is taken by a column every row has.
var ErrReserved = errors.New("reserved kind name")

func reservedKind(k string) error {
	for _, r := range ReservedKinds {
		if k == r {
			return fmt.Errorf("kind %q: %w: every row already has the column %s (reserved: %s, and names holding __); pick another name, e.g. %s_value", k, ErrReserved, r, strings.Join(ReservedKinds, ", "), k)
		}
	}
	if strings.Contains(k, "__") {
		return fmt.Errorf("kind %q: %w: __ separates a kind from its claim, basis and time columns", k, ErrReserved)
	}
	return nil
}

// CheckKind normalises a kind name and refuses one that collides with the
// columns every row has, before anything is journaled.
func CheckKind(kind string) (string, error) {
	k, err := Normalize(kind)
	if err != nil {
		return "", err
	}
	return k, reservedKind(k)
}

// commit journals op, then applies it to the cache, under the journal's
// lock so two sessions never interleave a write.
func (s *Store) commit(op Op) error {
	line, err := json.Marshal(op)
	if err != nil {
		return fmt.Errorf("encode table op: %w", err)
	}
	if err := safefs.MkdirAll(filepath.Dir(s.journal)); err != nil {
		return fmt.Errorf("create table journal directory: %w", err)
	}
	return atomicfile.WithLock(s.journal, func() error {
		if err := s.sync(); err != nil {
			return err
		}
		if err := s.check(op); err != nil {
			return err
		}
		if err := atomicfile.AppendUnlocked(s.journal, append(line, '\n'), 0o644); err != nil {
			return fmt.Errorf("append table journal: %w", err)
		}
		return s.sync()
	})
}

// sqlName quotes a normalised name for SQL; names reaching here passed
// Normalize, so the quotes are belt and braces, not the defence.
func sqlName(table string) string { return `"u_` + table + `"` }

func col(name string) string { return `"` + name + `"` }

func (s *Store) shape(q querier, table string) (shape, parent, parentKind string, err error) {
	err = q.QueryRow(`SELECT shape, parent, parent_kind FROM _tables WHERE name=?`, table).Scan(&shape, &parent, &parentKind)
	if errors.Is(err, sql.ErrNoRows) {
		return "", "", "", fmt.Errorf("table %q: %w", table, ErrNoTable)
	}
	return
}

func hasKind(q querier, table, kind string) bool {
	var n int
	q.QueryRow(`SELECT count(*) FROM _kinds WHERE tbl=? AND kind=?`, table, kind).Scan(&n)
	return n > 0
}

type querier interface {
	QueryRow(query string, args ...any) *sql.Row
}

// check refuses an op the current tables cannot take, before it is
// journaled: the journal holds only ops that apply.
func (s *Store) check(op Op) error {
	if err := checkNames(op); err != nil {
		return err
	}
	switch op.Op {
	case "kind", "write", "promote":
		sh, _, _, err := s.shape(s.db, op.Table)
		if err != nil {
			return err
		}
		if sh != ShapeRoot {
			return fmt.Errorf("table %q is a list; %s needs a root table: %w", op.Table, op.Op, ErrShape)
		}
		if op.Op != "kind" && !hasKind(s.db, op.Table, op.Kind) {
			return fmt.Errorf("kind %q of table %q: %w", op.Kind, op.Table, ErrNoKind)
		}
		if op.Op == "promote" {
			if sh, parent, pk, err := s.shape(s.db, op.List); err == nil && (sh != ShapeList || parent != op.Table || pk != op.Kind) {
				return fmt.Errorf("table %q exists and is not the list of %s.%s: %w", op.List, op.Table, op.Kind, ErrShape)
			}
		}
	case "append":
		sh, _, _, err := s.shape(s.db, op.Table)
		if err != nil {
			return err
		}
		if sh != ShapeList {
			return fmt.Errorf("table %q is not a list; append needs one made by promote: %w", op.Table, ErrShape)
		}
	case "drop":
		if _, _, _, err := s.shape(s.db, op.Table); err != nil {
			return err
		}
		var lists int
		s.db.QueryRow(`SELECT count(*) FROM _tables WHERE parent=?`, op.Table).Scan(&lists)
		if lists > 0 {
			return fmt.Errorf("table %q still has %d list table(s) grown from it; drop them first: %w", op.Table, lists, ErrShape)
		}
	}
	return nil
}

func apply(tx *sql.Tx, op Op) error {
	at := op.At.UTC().Format(time.RFC3339Nano)
	switch op.Op {
	case "create":
		_, err := tx.Exec(`CREATE TABLE IF NOT EXISTS ` + sqlName(op.Table) + `(id INTEGER PRIMARY KEY, key TEXT NOT NULL, calendar TEXT NOT NULL DEFAULT '', geo TEXT NOT NULL DEFAULT '', created TEXT NOT NULL, UNIQUE(key, calendar, geo))`)
		if err == nil {
			_, err = tx.Exec(`INSERT OR IGNORE INTO _tables(name, shape, created) VALUES(?,?,?)`, op.Table, ShapeRoot, at)
		}
		return err
	case "kind":
		if hasKind(tx, op.Table, op.Kind) {
			return nil
		}
		for _, c := range []string{op.Kind, op.Kind + "__claim", op.Kind + "__basis", op.Kind + "__at"} {
			if _, err := tx.Exec(`ALTER TABLE ` + sqlName(op.Table) + ` ADD COLUMN ` + col(c) + ` TEXT`); err != nil {
				return err
			}
		}
		_, err := tx.Exec(`INSERT INTO _kinds(tbl, kind, created) VALUES(?,?,?)`, op.Table, op.Kind, at)
		return err
	case "write":
		if _, err := tx.Exec(`INSERT OR IGNORE INTO `+sqlName(op.Table)+`(key, calendar, geo, created) VALUES(?,?,?,?)`, op.Key, op.Calendar, op.Geo, at); err != nil {
			return err
		}
		_, err := tx.Exec(`UPDATE `+sqlName(op.Table)+` SET `+col(op.Kind)+`=?, `+col(op.Kind+"__claim")+`=?, `+col(op.Kind+"__basis")+`=?, `+col(op.Kind+"__at")+`=? WHERE key=? AND calendar=? AND geo=?`,
			deref(op.Value), op.Claim, op.Basis, at, op.Key, op.Calendar, op.Geo)
		return err
	case "promote":
		if _, err := tx.Exec(`CREATE TABLE IF NOT EXISTS ` + sqlName(op.List) + `(id INTEGER PRIMARY KEY, key TEXT NOT NULL, calendar TEXT NOT NULL DEFAULT '', geo TEXT NOT NULL DEFAULT '', value TEXT, claim TEXT, basis TEXT, at TEXT NOT NULL)`); err != nil {
			return err
		}
		if _, err := tx.Exec(`INSERT OR IGNORE INTO _tables(name, shape, parent, parent_kind, created) VALUES(?,?,?,?,?)`, op.List, ShapeList, op.Table, op.Kind, at); err != nil {
			return err
		}
		// The old value moves with its own time, then the root field is
		// cleared: the list is now where the values live.
		var v, claim, basis, vat sql.NullString
		err := tx.QueryRow(`SELECT `+col(op.Kind)+`, `+col(op.Kind+"__claim")+`, `+col(op.Kind+"__basis")+`, `+col(op.Kind+"__at")+` FROM `+sqlName(op.Table)+` WHERE key=? AND calendar=? AND geo=?`, op.Key, op.Calendar, op.Geo).Scan(&v, &claim, &basis, &vat)
		if errors.Is(err, sql.ErrNoRows) || err == nil && !v.Valid {
			return nil
		}
		if err != nil {
			return err
		}
		if _, err := tx.Exec(`INSERT INTO `+sqlName(op.List)+`(key, calendar, geo, value, claim, basis, at) VALUES(?,?,?,?,?,?,?)`, op.Key, op.Calendar, op.Geo, v.String, claim.String, basis.String, vat.String); err != nil {
			return err
		}
		_, err = tx.Exec(`UPDATE `+sqlName(op.Table)+` SET `+col(op.Kind)+`=NULL, `+col(op.Kind+"__claim")+`=NULL, `+col(op.Kind+"__basis")+`=NULL, `+col(op.Kind+"__at")+`=NULL WHERE key=? AND calendar=? AND geo=?`, op.Key, op.Calendar, op.Geo)
		return err
	case "append":
		_, err := tx.Exec(`INSERT INTO `+sqlName(op.Table)+`(key, calendar, geo, value, claim, basis, at) VALUES(?,?,?,?,?,?,?)`, op.Key, op.Calendar, op.Geo, deref(op.Value), op.Claim, op.Basis, at)
		return err
	case "drop":
		var n int
		if err := tx.QueryRow(`SELECT count(*) FROM _tables WHERE name=?`, op.Table).Scan(&n); err != nil || n == 0 {
			return fmt.Errorf("drop %q: %w", op.Table, ErrNoTable)
		}
		if _, err := tx.Exec(`DROP TABLE IF EXISTS ` + sqlName(op.Table)); err != nil {
			return err
		}
		if _, err := tx.Exec(`DELETE FROM _kinds WHERE tbl=?`, op.Table); err != nil {
			return err
		}
		_, err := tx.Exec(`DELETE FROM _tables WHERE name=?`, op.Table)
		return err
	}
	return fmt.Errorf("unknown op %q", op.Op)
}

func deref(p *string) any {
	if p == nil {
		return nil
	}
	return *p
}
