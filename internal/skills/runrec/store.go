package runrec

import (
	"bufio"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/cerebro-mem/cerebro/internal/store/sqlitedb"
)

// maxLine bounds one journal line a replay assembles: a record clips its
// texts far below it, so a longer line is not one of ours and is skipped.
const maxLine = 1 << 20

// Store is the queryable cache of a journal.
type Store struct {
	db      *sql.DB
	journal Journal
}

// OpenStore opens the cache next to the journal and replays what it has not
// seen.
func OpenStore(j Journal) (*Store, error) {
	db, err := sqlitedb.Open(filepath.Join(j.Dir, "runs.db"))
	if err != nil {
		return nil, fmt.Errorf("open run records: %w", err)
	}
	s := &Store{db: db, journal: j}
	if err := s.Sync(); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// Close closes the cache.
func (s *Store) Close() error { return s.db.Close() }

const schema = `
CREATE TABLE IF NOT EXISTS meta(k TEXT PRIMARY KEY, v TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs(id TEXT PRIMARY KEY, seq INTEGER NOT NULL, time TEXT NOT NULL, kind TEXT NOT NULL,
  parent TEXT NOT NULL DEFAULT '', pair TEXT NOT NULL DEFAULT '', body TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS runs_pair ON runs(pair);
CREATE TABLE IF NOT EXISTS verdicts(seq INTEGER PRIMARY KEY, run TEXT NOT NULL, body TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS verdicts_run ON verdicts(run);
CREATE TABLE IF NOT EXISTS slots(seq INTEGER PRIMARY KEY, pair TEXT NOT NULL, time TEXT NOT NULL, calls INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS decisions(seq INTEGER PRIMARY KEY, body TEXT NOT NULL);`

const tsLayout = time.RFC3339Nano

// Sync replays the journal's unseen tail; a journal shorter than what the
// cache saw was replaced, so the cache starts over.
func (s *Store) Sync() error {
	if _, err := s.db.Exec(schema); err != nil {
		return fmt.Errorf("create run records schema: %w", err)
	}
	size := int64(0)
	if st, err := safefs.Lstat(s.journal.Path()); err == nil {
		size = st.Size()
	}
	tx, err := s.db.Begin()
	if err != nil {
		return fmt.Errorf("begin run records replay: %w", err)
	}
	defer tx.Rollback()
	var v string
	tx.QueryRow(`SELECT v FROM meta WHERE k='offset'`).Scan(&v)
	off, _ := strconv.ParseInt(v, 10, 64)
	if off == size {
		return nil
	}
	if off > size {
		for _, t := range []string{"runs", "verdicts", "slots", "decisions"} {
			if _, err := tx.Exec(`DELETE FROM ` + t); err != nil {
				return fmt.Errorf("reset run records: %w", err)
			}
		}
		off = 0
	}
	f, err := safefs.Open(s.journal.Path())
	if err != nil {
		return fmt.Errorf("read run journal: %w", err)
	}
	defer f.Close()
	if _, err := f.Seek(off, io.SeekStart); err != nil {
		return fmt.Errorf("read run journal: %w", err)
	}
	br := bufio.NewReaderSize(f, 64<<10)
	for {
		line, n, err := safefs.ReadLine(br, maxLine)
		if errors.Is(err, io.EOF) {
			break // a partial last line waits for its writer
		}
		if err != nil {
			return fmt.Errorf("read run journal: %w", err)
		}
		seq := off
		off += n
		var e event
		if line == nil || json.Unmarshal(line, &e) != nil {
			continue // a torn, foreign or overlong line is skipped, never fatal
		}
		if err := apply(tx, seq, e); err != nil {
			return fmt.Errorf("replay run journal at byte %d: %w", seq, err)
		}
	}
	if _, err := tx.Exec(`INSERT OR REPLACE INTO meta(k,v) VALUES('offset',?)`, strconv.FormatInt(off, 10)); err != nil {
		return fmt.Errorf("record run journal offset: %w", err)
	}
	return tx.Commit()
}

func apply(tx *sql.Tx, seq int64, e event) error {
	switch e.T {
	case "run":
		if e.Run == nil {
			return nil
		}
		b, _ := json.Marshal(e.Run)
		_, err := tx.Exec(`INSERT OR REPLACE INTO runs(id,seq,time,kind,parent,pair,body) VALUES(?,?,?,?,?,?,?)`,
			e.Run.ID, seq, e.Run.Time.UTC().Format(tsLayout), e.Run.Kind, e.Run.Parent, e.Run.Pair, string(b))
		return err
	case "tool", "end":
		var body string
		if tx.QueryRow(`SELECT body FROM runs WHERE id=?`, e.ID).Scan(&body) != nil {
			return nil
		}
		var r Run
		if json.Unmarshal([]byte(body), &r) != nil {
			return nil
		}
		if e.T == "tool" {
			if len(r.Tools) < 200 {
				r.Tools = append(r.Tools, e.Tool)
			}
		} else {
			r.Seconds, r.Open = e.Seconds, false
		}
		b, _ := json.Marshal(r)
		_, err := tx.Exec(`UPDATE runs SET body=? WHERE id=?`, string(b), e.ID)
		return err
	case "verdict":
		if e.Verdict == nil {
			return nil
		}
		b, _ := json.Marshal(e.Verdict)
		_, err := tx.Exec(`INSERT OR REPLACE INTO verdicts(seq,run,body) VALUES(?,?,?)`, seq, e.Verdict.Run, string(b))
		return err
	case "slot":
		_, err := tx.Exec(`INSERT OR REPLACE INTO slots(seq,pair,time,calls) VALUES(?,?,?,?)`, seq, e.ID, e.Time.UTC().Format(tsLayout), e.Calls)
		return err
	case "decision":
		if e.Decision == nil {
			return nil
		}
		b, _ := json.Marshal(e.Decision)
		_, err := tx.Exec(`INSERT OR REPLACE INTO decisions(seq,body) VALUES(?,?)`, seq, string(b))
		return err
	}
	return nil
}

// Filter selects runs; zero fields select everything.
type Filter struct {
	Kind  string
	Pair  string
	Since time.Time
	Limit int // newest first when set
}

// Runs returns the runs the filter selects, oldest first, each with its
// newest verdict.
func (s *Store) Runs(f Filter) ([]Run, error) {
	q := `SELECT r.body, COALESCE((SELECT v.body FROM verdicts v WHERE v.run=r.id ORDER BY v.seq DESC LIMIT 1),'') FROM runs r WHERE 1=1`
	var args []any
	if f.Kind != "" {
		q += ` AND r.kind=?`
		args = append(args, f.Kind)
	}
	if f.Pair != "" {
		q += ` AND r.pair=?`
		args = append(args, f.Pair)
	}
	if !f.Since.IsZero() {
		q += ` AND r.time>=?`
		args = append(args, f.Since.UTC().Format(tsLayout))
	}
	q += ` ORDER BY r.seq DESC`
	if f.Limit > 0 {
		q += ` LIMIT ` + strconv.Itoa(f.Limit)
	}
	rows, err := s.db.Query(q, args...)
	if err != nil {
		return nil, fmt.Errorf("query run records: %w", err)
	}
	defer rows.Close()
	var out []Run
	for rows.Next() {
		var body, vbody string
		if err := rows.Scan(&body, &vbody); err != nil {
			return nil, fmt.Errorf("query run records: %w", err)
		}
		var r Run
		if json.Unmarshal([]byte(body), &r) != nil {
			continue
		}
		if vbody != "" {
			var v Verdict
			if json.Unmarshal([]byte(vbody), &v) == nil {
				r.Verdict, r.VerdictNote = v.Verdict, v.Note
			}
		}
		out = append(out, r)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, rows.Err()
}

// Get returns one run with its verdict.
func (s *Store) Get(id string) (Run, bool, error) {
	var body string
	err := s.db.QueryRow(`SELECT body FROM runs WHERE id=?`, id).Scan(&body)
	if errors.Is(err, sql.ErrNoRows) {
		return Run{}, false, nil
	}
	if err != nil {
		return Run{}, false, fmt.Errorf("read run %s: %w", id, err)
	}
	var r Run
	if err := json.Unmarshal([]byte(body), &r); err != nil {
		return Run{}, false, fmt.Errorf("read run %s: %w", id, err)
	}
	var vbody string
	if s.db.QueryRow(`SELECT body FROM verdicts WHERE run=? ORDER BY seq DESC LIMIT 1`, id).Scan(&vbody) == nil {
		var v Verdict
		if json.Unmarshal([]byte(vbody), &v) == nil {
			r.Verdict, r.VerdictNote = v.Verdict, v.Note
		}
	}
	return r, true, nil
}

// Decisions lists evolution decisions, newest first.
func (s *Store) Decisions(limit int) ([]Decision, error) {
	q := `SELECT body FROM decisions ORDER BY seq DESC`
	if limit > 0 {
		q += ` LIMIT ` + strconv.Itoa(limit)
	}
	rows, err := s.db.Query(q)
	if err != nil {
		return nil, fmt.Errorf("query decisions: %w", err)
	}
	defer rows.Close()
	var out []Decision
	for rows.Next() {
		var body string
		rows.Scan(&body)
		var d Decision
		if json.Unmarshal([]byte(body), &d) == nil {
			out = append(out, d)
		}
	}
	return out, rows.Err()
}

// Summary counts runs by outcome. Unfinished runs are neither good nor bad.
type Summary struct {
	Runs       int `json:"runs"`
	Good       int `json:"good"`
	Bad        int `json:"bad"`
	Unfinished int `json:"unfinished"`
	Misses     int `json:"misses"` // level 5 reached, nothing found
}

// Summarize counts runs.
func Summarize(runs []Run) Summary {
	var s Summary
	for _, r := range runs {
		s.Runs++
		switch r.Verdict {
		case Good:
			s.Good++
		case Bad:
			s.Bad++
		default:
			s.Unfinished++
		}
		if r.Miss() {
			s.Misses++
		}
	}
	return s
}
