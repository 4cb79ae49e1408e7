// Package sqlitedb opens cerebro's SQLite databases. It is the only package
// that imports the driver (modernc.org/sqlite: pure Go, FTS5 built in), so
// every database gets the same settings for concurrent hooks: WAL journal,
// a busy timeout, foreign keys on.
//
// Callers use the returned *sql.DB with database/sql as usual. [Open]
// creates; [Reopen] opens a file Open made before for less (a search
// opens a dozen indexes at once).
package sqlitedb

import (
	"database/sql"
	"fmt"
	"math/rand/v2"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// Open opens (creating when missing) the database at path.
func Open(path string) (*sql.DB, error) {
	if err := safefs.MkdirAllMode(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("create directory for %s: %w", path, err)
	}
	// SQLite opens the path itself: a link, FIFO or device planted there is
	// refused first, like every other file of the layer.
	if err := safefs.CheckFile(path); err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	q := connParams()
	// 8 KiB pages: an FTS5 index of notes fills them better than 4 KiB
	// (about a tenth smaller, docs/search.md). It takes effect on a new file
	// only, before WAL fixes the page size: the driver runs the _pragma list
	// (in its own order) before its _journal_mode key.
	q.Add("_pragma", "page_size(8192)")
	q.Set("_journal_mode", "WAL")
	return open(path, q)
}

// Reopen opens the database at path as [Open] does, with the same
// settings for what the connection does (busy timeout, synchronous,
// foreign keys, immediate transactions), but without setting again what
// a file Open made keeps in itself: its page size and its WAL journal,
// both written into the file's header before its first page. Each of
// those pragmas is a statement of its own on every connection, and a
// search across projects opens a dozen indexes. A path that is missing
// or empty (a first open that died before its first page) is [Open]ed.
func Reopen(path string) (*sql.DB, error) {
	fi, err := safefs.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() == 0 {
		// Open creates what is missing and names what is wrong
		return Open(path)
	}
	return open(path, connParams())
}

// connParams are the settings every connection needs, whatever the file.
func connParams() url.Values {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(5000)")
	q.Set("_synchronous", "NORMAL")
	q.Set("_foreign_keys", "1")
	q.Set("_txlock", "immediate")
	return q
}

func open(path string, q url.Values) (*sql.DB, error) {
	dsn := "file:" + filepath.ToSlash(path) + "?" + q.Encode()
	// Switching a new database to WAL takes an exclusive lock, and SQLite
	// answers a second process doing the same with SQLITE_BUSY at once,
	// without its busy handler: concurrent first opens retry for a while.
	deadline := time.Now().Add(openRetry)
	for {
		db, err := sql.Open("sqlite", dsn)
		if err != nil {
			return nil, fmt.Errorf("open database %s: %w", path, err)
		}
		err = db.Ping()
		if err == nil {
			return db, nil
		}
		db.Close()
		if !isBusy(err) || time.Now().After(deadline) {
			return nil, fmt.Errorf("open database %s: %w", path, err)
		}
		time.Sleep(time.Duration(5+rand.IntN(20)) * time.Millisecond)
	}
}

// openRetry bounds how long Open waits out other processes' first opens.
const openRetry = 10 * time.Second

func isBusy(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "SQLITE_BUSY") || strings.Contains(msg, "database is locked")
}
