package search

import (
	"database/sql"
	"fmt"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

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
	// notes reads the files, each folder opened once a transaction
	notes safefs.Notes
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
	w.notes.Close()
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
	w.notes.Close()
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
