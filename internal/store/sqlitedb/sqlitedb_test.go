package sqlitedb

import (
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
