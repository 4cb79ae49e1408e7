package sqlitedb

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// The search index depends on FTS5 being compiled into the driver: a driver
// change that drops it must fail here, loudly.
func TestFTS5Available(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "x", "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE VIRTUAL TABLE f USING fts5(body)`); err != nil {
		t.Fatalf("fts5: %v", err)
	}
	if _, err := db.Exec(`INSERT INTO f(body) VALUES ('memory is markdown')`); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM f WHERE f MATCH 'markdown'`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("match: n=%d err=%v", n, err)
	}
	var mode string
	db.QueryRow(`PRAGMA journal_mode`).Scan(&mode)
	if mode != "wal" {
		t.Fatalf("journal_mode = %s, want wal", mode)
	}
	var page int
	db.QueryRow(`PRAGMA page_size`).Scan(&page)
	if page != 8192 {
		t.Fatalf("page_size = %d, want 8192", page)
	}
	var fk, sync int
	db.QueryRow(`PRAGMA foreign_keys`).Scan(&fk)
	db.QueryRow(`PRAGMA synchronous`).Scan(&sync)
	if fk != 1 || sync != 1 {
		t.Fatalf("foreign_keys = %d, synchronous = %d, want 1 and 1 (NORMAL)", fk, sync)
	}
}

// Hooks of several sessions open the same database at once, often while it
// is still being created: every open must wait its turn, never fail busy.
func TestConcurrentFirstOpens(t *testing.T) {
	for round := 0; round < 20; round++ {
		path := filepath.Join(t.TempDir(), "c.db")
		var wg sync.WaitGroup
		errs := make(chan error, 8)
		for i := 0; i < 8; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				db, err := Open(path)
				if err != nil {
					errs <- err
					return
				}
				defer db.Close()
				if _, err := db.Exec(`CREATE TABLE IF NOT EXISTS t(x)`); err != nil {
					errs <- err
					return
				}
				if _, err := db.Exec(`INSERT INTO t VALUES (1)`); err != nil {
					errs <- err
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatalf("round %d: %v", round, err)
		}
	}
}

// Reopen leaves out the pragmas a file keeps in itself: what it gives must
// still be the file Open made (WAL, 8 KiB pages) with the connection's own
// settings, and a write through it must be there for the next reader.
func TestReopenKeepsWhatOpenMade(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x", "r.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE t(x TEXT)`); err != nil {
		t.Fatal(err)
	}
	db.Close()

	db, err = Reopen(path)
	if err != nil {
		t.Fatal(err)
	}
	var mode string
	var page, fk, sync, busy int
	db.QueryRow(`PRAGMA journal_mode`).Scan(&mode)
	db.QueryRow(`PRAGMA page_size`).Scan(&page)
	db.QueryRow(`PRAGMA foreign_keys`).Scan(&fk)
	db.QueryRow(`PRAGMA synchronous`).Scan(&sync)
	db.QueryRow(`PRAGMA busy_timeout`).Scan(&busy)
	if mode != "wal" || page != 8192 || fk != 1 || sync != 1 || busy != 5000 {
		t.Fatalf("reopened: journal_mode %s, page_size %d, foreign_keys %d, synchronous %d, busy_timeout %d; want wal, 8192, 1, 1 (NORMAL), 5000",
			mode, page, fk, sync, busy)
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(`INSERT INTO t VALUES ('kept')`); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	db.Close()

	db, err = Reopen(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var x string
	if err := db.QueryRow(`SELECT x FROM t`).Scan(&x); err != nil || x != "kept" {
		t.Fatalf("the write through Reopen: %q, %v", x, err)
	}
}

// A missing file is created as Open creates it; a link planted at the path
// is refused as Open refuses it.
func TestReopenMissingOrPlanted(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "new", "n.db")
	db, err := Reopen(path)
	if err != nil {
		t.Fatal(err)
	}
	var mode string
	db.QueryRow(`PRAGMA journal_mode`).Scan(&mode)
	db.Close()
	if mode != "wal" {
		t.Fatalf("a new file through Reopen: journal_mode %s, want wal", mode)
	}
	target := filepath.Join(dir, "target.db")
	if db, err := Open(target); err != nil {
		t.Fatal(err)
	} else {
		db.Exec(`CREATE TABLE t(x)`)
		db.Close()
	}
	link := filepath.Join(dir, "link.db")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if db, err := Reopen(link); err == nil {
		db.Close()
		t.Fatal("Reopen opened a database through a symlink")
	}
}
