package tables

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// Skipped is a journal line the cache could not apply.
type Skipped struct {
	At    int64  `json:"at"` // byte offset of the line in the journal
	Line  string `json:"line"`
	Error string `json:"error"`
}

// Skipped lists the journal lines replay skipped, in journal order.
func (s *Store) Skipped() ([]Skipped, error) {
	rows, err := s.db.Query(`SELECT at, line, error FROM _skipped ORDER BY at`)
	if err != nil {
		return nil, fmt.Errorf("list skipped table ops: %w", err)
	}
	defer rows.Close()
	var out []Skipped
	for rows.Next() {
		var k Skipped
		if err := rows.Scan(&k.At, &k.Line, &k.Error); err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	return out, rows.Err()
}

// RepairResult says what Repair did.
type RepairResult struct {
	Kept     int       `json:"kept"`               // ops left in the journal
	Removed  []Skipped `json:"removed"`            // lines moved out of the journal
	Rejected string    `json:"rejected,omitempty"` // the file they were moved to
}

// RejectedSuffix names the file beside the journal that keeps the lines
// Repair took out: nothing is deleted, only moved where replay no longer
// reads it.
const RejectedSuffix = ".rejected"

// Repair rebuilds the cache from the whole journal and moves every line
// that cannot apply into <journal>.rejected (one JSON object per line: the
// line, its error and when it was moved), rewriting the journal atomically
// without them. A journal with nothing to remove is left untouched.
func (s *Store) Repair(now time.Time) (RepairResult, error) {
	var res RepairResult
	err := atomicfile.WithLock(s.journal, func() error {
		if err := s.rebuild(); err != nil {
			return err
		}
		skipped, err := s.Skipped()
		if err != nil {
			return err
		}
		data, err := readJournal(s.journal)
		if err != nil {
			return err
		}
		drop := map[int64]bool{}
		for _, k := range skipped {
			drop[k.At] = true
		}
		var keep, rejected bytes.Buffer
		pos := int64(0)
		for len(data) > 0 {
			i := bytes.IndexByte(data, '\n')
			if i < 0 { // a torn last line stays for the next append to finish or replay to ignore
				keep.Write(data)
				break
			}
			line := data[:i+1]
			if drop[pos] {
				rec, _ := json.Marshal(map[string]string{"moved": now.UTC().Format(time.RFC3339), "error": errorOf(skipped, pos), "line": strings.TrimSpace(string(line))})
				rejected.Write(append(rec, '\n'))
			} else if len(bytes.TrimSpace(line)) > 0 {
				res.Kept++
				keep.Write(line)
			}
			pos += int64(len(line))
			data = data[i+1:]
		}
		res.Removed = append([]Skipped{}, skipped...) // a list in JSON, empty or not
		if len(skipped) == 0 {
			return nil
		}
		res.Rejected = s.journal + RejectedSuffix
		if err := atomicfile.Append(res.Rejected, rejected.Bytes(), 0o644); err != nil {
			return fmt.Errorf("keep the rejected table ops: %w", err)
		}
		if err := atomicfile.Write(s.journal, keep.Bytes(), 0o644); err != nil {
			return fmt.Errorf("rewrite table journal: %w", err)
		}
		return s.rebuild()
	})
	return res, err
}

func errorOf(sk []Skipped, at int64) string {
	for _, k := range sk {
		if k.At == at {
			return k.Error
		}
	}
	return ""
}

// rebuild drops the cache and replays the whole journal.
func (s *Store) rebuild() error {
	tx, err := s.db.Begin()
	if err != nil {
		return fmt.Errorf("begin table cache rebuild: %w", err)
	}
	defer tx.Rollback()
	if err := reset(tx); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("reset table cache: %w", err)
	}
	return s.sync()
}

// MaxRepairBytes bounds the journal Repair rewrites in memory.
const MaxRepairBytes = 256 << 20

// readJournal reads the whole journal for a rewrite: a regular file only
// (a link or a special file planted in its place is refused, never
// followed) and at most MaxRepairBytes.
func readJournal(path string) ([]byte, error) {
	st, err := os.Lstat(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read table journal: %w", err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("read table journal: %s is not a regular file (%s); refusing to rewrite it", path, st.Mode().Type())
	}
	if st.Size() > MaxRepairBytes {
		return nil, fmt.Errorf("read table journal: %s is %d bytes, over the %d repair rewrites in memory", path, st.Size(), MaxRepairBytes)
	}
	f, err := safefs.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read table journal: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxRepairBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read table journal: %w", err)
	}
	if len(data) > MaxRepairBytes {
		return nil, fmt.Errorf("read table journal: %s grew past %d bytes while being read", path, MaxRepairBytes)
	}
	return data, nil
}
