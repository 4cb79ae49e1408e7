package tables

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// Op is one write, as journaled. The journal (JSON lines, append-only) is
// the truth; the SQLite tables are rebuilt from it whenever they are
// missing or behind.
type Op struct {
	Op       string    `json:"op"` // create, kind, write, promote, append, drop
	Table    string    `json:"table"`
	Kind     string    `json:"kind,omitempty"`
	Key      string    `json:"key,omitempty"`
	Value    *string   `json:"value,omitempty"`
	Claim    string    `json:"claim,omitempty"`
	Basis    string    `json:"basis,omitempty"`
	Calendar string    `json:"calendar,omitempty"`
	Geo      string    `json:"geo,omitempty"`
	List     string    `json:"list,omitempty"`
	At       time.Time `json:"at"`
}

// entry is one journal line: the op, or why it cannot be read, and where
// the line starts.
type entry struct {
	op   Op
	at   int64 // byte offset of the line
	bad  error // the line is not an op
	line []byte
}

// readOps reads the journal from byte offset and returns its entries and the
// offset after the last whole line. A torn last line (a crash mid-append)
// is left for the next run and never applied; a whole line that is not an
// op is returned with its error, to be skipped and reported, not to stop
// every later op.
func readOps(path string, offset int64) ([]entry, int64, error) {
	f, err := safefs.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, offset, fmt.Errorf("open table journal: %w", err)
	}
	defer f.Close()
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return nil, offset, fmt.Errorf("seek table journal: %w", err)
	}
	r := bufio.NewReader(f)
	var ops []entry
	pos := offset
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 && line[len(line)-1] == '\n' {
			pos += int64(len(line))
			if t := bytes.TrimSpace(line); len(t) > 0 {
				e := entry{at: pos - int64(len(line)), line: append([]byte(nil), t...)}
				if jerr := json.Unmarshal(t, &e.op); jerr != nil {
					e.bad = fmt.Errorf("not a table op: %w", jerr)
				}
				ops = append(ops, e)
			}
		}
		if err == io.EOF {
			return ops, pos, nil
		}
		if err != nil {
			return nil, offset, fmt.Errorf("read table journal: %w", err)
		}
	}
}
